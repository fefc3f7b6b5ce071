#include "analysis.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cstring>

#include "knitted.hpp"
#include "restricted.hpp"
#include "tables.hpp"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace hupai {
namespace {

constexpr int kBig = 99;
constexpr int kFullHand = 14;  // special forms: 14 concealed tiles

// For the batch kernels' per-row work (hand_cost and what it calls): a call there costs them up to 8% more
// instructions, and GCC leaves these out of line once discard_analysis calls them too.
#if defined(__GNUC__)
#define HUPAI_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define HUPAI_ALWAYS_INLINE inline
#endif

// ---------------------------------------------------------------- validation

enum ErrorCode {
    kOk = 0,
    kBadCount,
    kBadJokers,
    kBadMelds,
    kBadForms,
    kBadSize,
    kNeedComplete,
    kNeedWaiting,
    kNoForm,
    kBadJokerKinds,
};

// Sum and maximum of the 34 counts: checked for every row of a batch, so it is done 16 bytes at a time.
#if defined(__SSE2__)
// From kinds 0..15 (low), kinds 18..33 (high) and kinds 16 and 17: the way a batch row is copied too.
inline void count_stats(__m128i low, __m128i high, int kind16, int kind17, int& total, int& worst) {
    const __m128i zero = _mm_setzero_si128();
    const __m128i sums = _mm_add_epi64(_mm_sad_epu8(low, zero), _mm_sad_epu8(high, zero));
    total = _mm_cvtsi128_si32(sums) + _mm_cvtsi128_si32(_mm_srli_si128(sums, 8)) + kind16 + kind17;
    __m128i most = _mm_max_epu8(low, high);
    most = _mm_max_epu8(most, _mm_srli_si128(most, 8));
    most = _mm_max_epu8(most, _mm_srli_si128(most, 4));
    most = _mm_max_epu8(most, _mm_srli_si128(most, 2));
    most = _mm_max_epu8(most, _mm_srli_si128(most, 1));
    worst = std::max({_mm_cvtsi128_si32(most) & 0xFF, kind16, kind17});
}
#endif

inline void count_stats(const std::uint8_t* counts, int& total, int& worst) {
#if defined(__SSE2__)
    count_stats(_mm_loadu_si128(reinterpret_cast<const __m128i*>(counts)),
                _mm_loadu_si128(reinterpret_cast<const __m128i*>(counts + 18)), counts[16], counts[17], total, worst);
#else
    total = 0, worst = 0;
    for (int k = 0; k < kNumKinds; ++k) total += counts[k], worst = std::max(worst, int(counts[k]));
#endif
}

int tile_total(const HandQuery& q) {
    int total = q.jokers;
    for (int k = 0; k < kNumKinds; ++k) total += q.counts[k];
    return total;
}

bool any_form_applies(const HandQuery& q) {
    return (q.forms & kStandard) || (q.melds == 0 && (q.forms & kConcealedOnlyForms));
}

// Tiles held in each group (万, 筒, 条, honors), 16 bytes at a time where SSE2 exists.
inline void group_sums(const std::uint8_t* counts, int sums[4]) {
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128();
    const __m128i first9 = _mm_setr_epi8(-1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0);
    const __m128i low = _mm_loadu_si128(reinterpret_cast<const __m128i*>(counts));        // kinds 0..15
    const __m128i high = _mm_loadu_si128(reinterpret_cast<const __m128i*>(counts + 18));  // kinds 18..33
    auto total = [](__m128i sad) { return _mm_cvtsi128_si32(sad) + _mm_extract_epi16(sad, 4); };
    sums[0] = total(_mm_sad_epu8(_mm_and_si128(low, first9), zero));
    sums[1] = total(_mm_sad_epu8(_mm_andnot_si128(first9, low), zero)) + counts[16] + counts[17];
    sums[2] = total(_mm_sad_epu8(_mm_and_si128(high, first9), zero));
    sums[3] = total(_mm_sad_epu8(_mm_andnot_si128(first9, high), zero));
#else
    sums[0] = sums[1] = sums[2] = sums[3] = 0;
    for (int k = 0; k < kNumKinds; ++k) sums[k / 9] += counts[k];
#endif
}

// Exact completeness without jokers: every group must split exactly (its size 0 or 2 mod 3, the pair in one
// group only) and its table entry must show nothing missing. The size test rejects most hands before any
// table is read. kSizeShape[s] adds 1 for a group that must hold the pair and poisons a size of 1 mod 3.
constexpr int kSizeShape[15] = {0, 16, 1, 0, 16, 1, 0, 16, 1, 0, 16, 1, 0, 16, 1};

inline bool standard_complete_no_jokers(const Tables& tables, const std::uint8_t* counts) {
    int sums[4];
    group_sums(counts, sums);
    if (kSizeShape[sums[0]] + kSizeShape[sums[1]] + kSizeShape[sums[2]] + kSizeShape[sums[3]] != 1) return false;
    bool ok = true;
    for (int group = 0; group < 4; ++group) {
        const GroupEntry entry = group == 3 ? tables.honors(counts + kFirstHonor) : tables.suit(counts + 9 * group);
        ok &= entry_value(entry, sums[group] / 3, sums[group] % 3 == 2) == 0;
    }
    return ok;
}

// ---------------------------------------------------------------- special forms, unrestricted jokers
//
// Closed formulas for the deficiency (tiles missing from the natural tiles), branch-free.

// Seven pairs: P kinds held twice or more give a pair each, S single kinds one tile each.
inline int seven_pairs_deficiency(const std::uint8_t* counts) {
    int pairs = 0, singles = 0;
    for (int k = 0; k < kNumKinds; ++k) pairs += counts[k] >= 2, singles += counts[k] == 1;
    const int used = std::min(pairs, 7);
    return kFullHand - 2 * used - std::min(singles, 7 - used);
}

// A quad counts as two pairs: c tiles give c / 2 pairs and, if c is odd, a half pair.
inline int seven_pairs_quads_deficiency(const std::uint8_t* counts) {
    int pairs = 0, halves = 0;
    for (int k = 0; k < kNumKinds; ++k) pairs += counts[k] >> 1, halves += counts[k] & 1;
    const int used = std::min(pairs, 7);
    return kFullHand - 2 * used - std::min(halves, 7 - used);
}

inline int thirteen_orphans_deficiency(const std::uint8_t* counts) {
    int distinct = 0, duplicate = 0;
    for (int kind : kOrphans) distinct += counts[kind] > 0, duplicate |= counts[kind] >= 2;
    return kFullHand - distinct - duplicate;
}

inline int terminals_honors_deficiency(const std::uint8_t* counts) {
    int matched = 0;
    for (int kind : kOrphans) matched += counts[kind];
    return kFullHand - matched;
}

// Knitted: per suit, the most held kinds a knitted set of each size can cover (from a 4 x 512 table).
struct KnittedCover {
    std::uint8_t best[4][512];
    KnittedCover() {
        const KnittedSets& sets = KnittedSets::get();
        for (int size = 0; size < 4; ++size)
            for (unsigned held = 0; held < 512; ++held) {
                int cover = 0;
                for (unsigned set : sets.by_size[size]) cover = std::max(cover, __builtin_popcount(set & held));
                best[size][held] = std::uint8_t(cover);
            }
    }
    static const KnittedCover& get() {
        static const KnittedCover cover;
        return cover;
    }
};

inline int knitted_deficiency(const std::uint8_t* counts) {
    const KnittedCover& cover = KnittedCover::get();
    unsigned held[3] = {0, 0, 0};
    for (int suit = 0; suit < 3; ++suit)
        for (int n = 0; n < 9; ++n) held[suit] |= unsigned(counts[9 * suit + n] > 0) << n;
    int honors = 0;
    for (int k = kFirstHonor; k < kNumKinds; ++k) honors += counts[k] > 0;
    int matched = 0;
    for (int s0 = 0; s0 < 4; ++s0)
        for (int s1 = 0; s1 < 4; ++s1)
            for (int s2 = 0; s2 < 4; ++s2) {
                const int honor_slots = kFullHand - s0 - s1 - s2;  // 5..14; more than 7 cannot be filled
                const int value = cover.best[s0][held[0]] + cover.best[s1][held[1]] + cover.best[s2][held[2]] +
                                  std::min(honor_slots, honors);
                matched = honor_slots <= kNumHonors ? std::max(matched, value) : matched;
            }
    return kFullHand - matched;
}

// Jokers may stand for any kind: cost = deficiency - jokers (the natural tiles are `jokers` short of the
// target size, so the deficiency is never below the joker count).
// The lesser of `deficiency` (the standard form's, or kBig) and the other forms' deficiencies in q.forms.
HUPAI_ALWAYS_INLINE int with_other_forms(const HandQuery& q, int deficiency) {
    if (q.melds == 0) {
        if (q.forms & kSevenPairs) deficiency = std::min(deficiency, seven_pairs_deficiency(q.counts));
        if (q.forms & kSevenPairsQuads) deficiency = std::min(deficiency, seven_pairs_quads_deficiency(q.counts));
        if (q.forms & kThirteenOrphans) deficiency = std::min(deficiency, thirteen_orphans_deficiency(q.counts));
        if (q.forms & kKnitted) deficiency = std::min(deficiency, knitted_deficiency(q.counts));
        if (q.forms & kTerminalsHonors) deficiency = std::min(deficiency, terminals_honors_deficiency(q.counts));
    }
    return deficiency;
}

// The draws that lower the least of the concealed-only forms in q.forms, when that least is `least` (q a
// 13-tile hand with no melds): each form's deficiency drops by one for exactly the draws its closed formula
// says (a pair completed while fewer than seven are held, a new single while there is room for it, a missing
// or a first doubled orphan, any orphan), knitted's asked draw by draw. discard_analysis asks this where the
// other forms are as near a win as the standard one.
std::uint64_t other_forms_lowering(const HandQuery& q, int least) {
    const std::uint8_t* counts = q.counts;
    std::uint64_t none = 0, one = 0, odd = 0, even_room = 0, room = 0;
    int pairs = 0, singles = 0, quad_pairs = 0, halves = 0;
    for (int k = 0; k < kNumKinds; ++k) {
        const int c = counts[k];
        const std::uint64_t bit = std::uint64_t(1) << k;
        none |= c == 0 ? bit : 0, one |= c == 1 ? bit : 0, odd |= c & 1 ? bit : 0;
        even_room |= (c & 1) == 0 && c < kMaxCopies ? bit : 0, room |= c < kMaxCopies ? bit : 0;
        pairs += c >= 2, singles += c == 1, quad_pairs += c >> 1, halves += c & 1;
    }
    std::uint64_t lowering = 0;
    const auto pair_form = [&](int held_pairs, int held_halves, std::uint64_t completing, std::uint64_t starting) {
        const int used = std::min(held_pairs, 7);
        if (kFullHand - 2 * used - std::min(held_halves, 7 - used) != least) return;
        lowering |= (held_pairs < 7 ? completing : 0) | (held_halves < 7 - used ? starting : 0);
    };
    if (q.forms & kSevenPairs) pair_form(pairs, singles, one, none);
    if (q.forms & kSevenPairsQuads) pair_form(quad_pairs, halves, odd, even_room);
    if (q.forms & kThirteenOrphans) {
        const bool doubled = (~(none | one) & kOrphanMask) != 0;
        if (thirteen_orphans_deficiency(counts) == least) lowering |= kOrphanMask & (none | (doubled ? 0 : one));
    }
    if (q.forms & kTerminalsHonors && terminals_honors_deficiency(counts) == least) lowering |= kOrphanMask & room;
    if (q.forms & kKnitted && knitted_deficiency(counts) == least) {
        std::uint8_t drawn[kNumKinds];
        std::copy(counts, counts + kNumKinds, drawn);
        for (int draw = 0; draw < kNumKinds; ++draw) {
            if (drawn[draw] >= kMaxCopies) continue;
            ++drawn[draw];
            lowering |= std::uint64_t(knitted_deficiency(drawn) < least) << draw;
            --drawn[draw];
        }
    }
    return lowering & room;
}

// Bit k set where values[k] < limit, for 34 bytes (16 at a time where SSE2 exists).
inline std::uint64_t kinds_below(const std::uint8_t* values, int limit) {
    if (limit <= 0) return 0;
    if (limit > 255) return kAllKinds;
#if defined(__SSE2__)
    // v < limit  <=>  min(v, limit - 1) == v, for unsigned bytes.
    const __m128i top = _mm_set1_epi8(static_cast<char>(limit - 1));
    const auto below = [&top](const std::uint8_t* at) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
        return std::uint64_t(unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(v, top), v))));
    };
    return below(values) | below(values + 16) << 16 | std::uint64_t(values[32] < limit) << 32 |
           std::uint64_t(values[33] < limit) << 33;
#else
    std::uint64_t bits = 0;
    for (int k = 0; k < kNumKinds; ++k) bits |= std::uint64_t(values[k] < limit) << k;
    return bits;
#endif
}

HUPAI_ALWAYS_INLINE int unrestricted_cost(const HandQuery& q) {
    const int standard = q.forms & kStandard ? standard_deficiency(q.counts, kMaxMelds - q.melds) : kBig;
    return with_other_forms(q, standard) - q.jokers;
}

}  // namespace

// ---------------------------------------------------------------- public entry points

int check_query(const HandQuery& q, SizeRule rule) {
    if (q.jokers < 0 || q.jokers > kMaxJokers) return kBadJokers;
    if (q.melds < 0 || q.melds > kMaxMelds) return kBadMelds;
    if (q.forms == 0 || (q.forms & ~kAllForms)) return kBadForms;
    if (q.joker_kinds & ~kAllKinds) return kBadJokerKinds;
    int total = 0, worst = 0;
    count_stats(q.counts, total, worst);
    total += q.jokers;
    if (worst > kMaxCopies) return kBadCount;
    const int full = 3 * (kMaxMelds - q.melds) + 2;
    if (total != full && total != full - 1) return kBadSize;
    if (rule == SizeRule::kComplete && total != full) return kNeedComplete;
    if (rule == SizeRule::kWaiting && total != full - 1) return kNeedWaiting;
    if (!any_form_applies(q)) return kNoForm;
    return kOk;
}

std::string describe_error(const HandQuery& q, SizeRule rule, int code) {
    (void)rule;
    const long long full = 3LL * (kMaxMelds - q.melds) + 2;  // only used once melds is known to be 0..4
    switch (code) {
        case kBadJokers:
            return "jokers must be between 0 and 8, got " + std::to_string(q.jokers);
        case kBadMelds:
            return "melds must be between 0 and 4, got " + std::to_string(q.melds);
        case kBadForms:
            return "forms must be a non-empty combination of hupai.Forms flags, got " + std::to_string(q.forms);
        case kBadJokerKinds:
            return "joker_kinds has bits outside the 34 kinds";
        case kBadCount:
            for (int k = 0; k < kNumKinds; ++k)
                if (q.counts[k] > kMaxCopies)
                    return "count " + std::to_string(q.counts[k]) + " of kind " + std::to_string(k) + " (" +
                           kind_name(k) + ") is more than 4";
            break;
        case kBadSize:
            return "a hand with " + std::to_string(q.melds) + " exposed meld(s) has " + std::to_string(full - 1) +
                   " or " + std::to_string(full) + " concealed tiles (jokers included), got " +
                   std::to_string(tile_total(q));
        case kNeedComplete:
            return "a complete hand needs " + std::to_string(full) + " concealed tiles with " +
                   std::to_string(q.melds) + " exposed meld(s), got " + std::to_string(tile_total(q)) +
                   " (use shanten or waits for a waiting hand)";
        case kNeedWaiting:
            return "waits needs a waiting hand of " + std::to_string(full - 1) + " concealed tiles with " +
                   std::to_string(q.melds) + " exposed meld(s), got " + std::to_string(tile_total(q));
        case kNoForm:
            return "none of the requested forms applies: seven pairs, thirteen orphans, knitted and "
                   "terminals-honors need a fully concealed hand (melds == 0)";
        default:
            break;
    }
    return "invalid hand";
}

void require_valid(const HandQuery& q, SizeRule rule) {
    const int code = check_query(q, rule);
    if (code != kOk) throw InvalidHand(describe_error(q, rule, code));
}

int hand_cost(const HandQuery& q) {
    const bool unrestricted = q.jokers == 0 || (q.joker_kinds & kAllKinds) == kAllKinds;
    return unrestricted ? unrestricted_cost(q) : restricted_cost(q);
}

bool hand_complete(const HandQuery& q) {
    // The common case (no jokers, standard form only) needs no combine step at all.
    if (q.jokers == 0 && q.forms == kStandard) return standard_complete_no_jokers(Tables::get(), q.counts);
    return hand_cost(q) == 0;
}

int shanten(const HandQuery& q) {
    require_valid(q, SizeRule::kAny);
    return hand_cost(q) - 1;
}

void discard_analysis(const HandQuery& q, std::int8_t* shanten_after, std::uint64_t* improving, int variant) {
    require_valid(q, SizeRule::kComplete);
    std::array<std::uint8_t, kNumKinds> counts;
    std::copy(q.counts, q.counts + kNumKinds, counts.begin());
    HandQuery hand = q;
    hand.counts = counts.data();
    // Unrestricted jokers (or none): a draw changes one group, so the standard form's cost of every draw comes
    // from the other groups combined once per discard (StandardPartials), exactly as hand_cost would give it;
    // with SIMD, from every (discard, draw) pair's deficiency found in one pass (standard_discard_draws).
    const bool partial = q.jokers == 0 || (q.joker_kinds & kAllKinds) == kAllKinds;
    const bool standard = q.forms & kStandard;
    if (partial && standard && variant != 0 && discard_draws_in_simd()) {
        DiscardDraws draws;
        standard_discard_draws(q.counts, kMaxMelds - q.melds, draws);
        for (int out = 0; out < kNumKinds; ++out) {
            shanten_after[out] = 127;
            improving[out] = 0;
            if (counts[out] == 0) continue;
            --counts[out];
            // hand_cost of the hand after the discard, its standard part from the table above.
            const int others = with_other_forms(hand, kBig);
            const int least = std::min(int(draws.after[out]), others);
            shanten_after[out] = std::int8_t(least - q.jokers - 1);
            // A draw improves when the least deficiency after it is below `least`. The standard form's says so
            // for most (a kind held four times reads 255: never). A draw lowers any form's deficiency by one at
            // most, so the other forms can only do it when they are the least already (others == least), and
            // then their closed formulas name the draws at once.
            const std::uint8_t* row = draws.draw[out];
            const std::uint64_t bits = kinds_below(row, least);
            improving[out] = bits | (others == least ? other_forms_lowering(hand, least) : 0);
            ++counts[out];
        }
        return;
    }
    for (int out = 0; out < kNumKinds; ++out) {
        shanten_after[out] = 127;
        improving[out] = 0;
        if (counts[out] == 0) continue;
        --counts[out];
        const int after = hand_cost(hand) - 1;
        shanten_after[out] = std::int8_t(after);
        std::uint64_t bits = 0;
        if (partial) {
            const StandardPartials others(counts.data(), standard ? kMaxMelds - q.melds : 0);
            // A drawn tile lowers any form's deficiency by one at most, so where the standard form's is no more
            // than the other forms' before the draw less one, it is the least, and they need not be asked.
            const int others_floor = with_other_forms(hand, kBig) - 1;
            for (int draw = 0; draw < kNumKinds; ++draw) {
                if (counts[draw] >= kMaxCopies) continue;
                ++counts[draw];
                int deficiency = standard ? others.deficiency(counts.data(), draw / 9) : kBig;
                if (deficiency > others_floor) deficiency = with_other_forms(hand, deficiency);
                bits |= std::uint64_t(deficiency - q.jokers - 1 < after) << draw;
                --counts[draw];
            }
        } else {
            for (int draw = 0; draw < kNumKinds; ++draw) {
                if (counts[draw] >= kMaxCopies) continue;
                ++counts[draw];
                bits |= std::uint64_t(hand_cost(hand) - 1 < after) << draw;
                --counts[draw];
            }
        }
        improving[out] = bits;
        ++counts[out];
    }
}

HandQuery BatchRows::row(long long index) const {
    return HandQuery{counts + index * kNumKinds, jokers ? int(jokers[index]) : joker_scalar,
                     melds ? int(melds[index]) : meld_scalar, forms, joker_kinds};
}

namespace {

// One batch row, read from the caller's array exactly once: the check and every lookup read this copy, so another
// thread writing into the array (the GIL is released) cannot slip a count past the check. The copy is stored the
// way the kernel loads it (16 bytes at 0 and at 18, the two bytes between), so each of its loads is served whole
// from one store: a plain 34-byte copy splits the load at 18 over two stores and stalled every row (a fifth of
// the batch rate), and a 256-row block copied ahead measured 3-6% slower than this.
class RowCopy {
  public:
    const std::uint8_t* data() const { return bytes_; }
    // Copies the row and returns its sum and largest count, from the registers the copy went through.
    void load(const std::uint8_t* row, int& total, int& worst) {
#if defined(__SSE2__)
        const __m128i low = _mm_loadu_si128(reinterpret_cast<const __m128i*>(row));        // kinds 0..15
        const __m128i high = _mm_loadu_si128(reinterpret_cast<const __m128i*>(row + 18));  // kinds 18..33
        std::uint16_t middle;                                                               // kinds 16, 17
        std::memcpy(&middle, row + 16, sizeof middle);
        _mm_store_si128(reinterpret_cast<__m128i*>(bytes_), low);
        _mm_storeu_si128(reinterpret_cast<__m128i*>(bytes_ + 18), high);
        std::memcpy(bytes_ + 16, &middle, sizeof middle);
        count_stats(low, high, middle & 0xFF, middle >> 8, total, worst);
#else
        std::memcpy(bytes_, row, kNumKinds);
        count_stats(bytes_, total, worst);
#endif
    }

  private:
    alignas(16) std::uint8_t bytes_[kNumKinds];
};

template <typename Out, typename Kernel>
long long run_rows(const BatchRows& rows, SizeRule rule, long long begin, long long end, Out* out, BatchError* error,
                   Kernel kernel) {
    if (begin >= end) return -1;
    RowCopy copy;
    auto fail = [&](long long index, const HandQuery& query, int code) {
        error->code = code;
        std::memcpy(error->counts.data(), query.counts, kNumKinds);
        error->jokers = query.jokers;
        error->melds = query.melds;
        return index;
    };
    const bool per_row = rows.jokers || rows.melds;  // per-row jokers or melds: the full check on every row
    HandQuery query = rows.row(begin);
    query.counts = copy.data();
    int low = 0, high = 0;
    for (long long index = begin; index < end; ++index) {
        int total = 0, worst = 0;
        copy.load(rows.counts + index * kNumKinds, total, worst);
        if (per_row || index == begin) {
            query = rows.row(index);
            query.counts = copy.data();
            const int code = check_query(query, rule);
            if (code != kOk) return fail(index, query, code);
            // Shared jokers and melds are checked once; each later row then only needs its counts checked.
            const int full = 3 * (kMaxMelds - query.melds) + 2 - query.jokers;  // natural tiles, complete
            low = rule == SizeRule::kComplete ? full : full - 1;
            high = rule == SizeRule::kWaiting ? full - 1 : full;
        } else if (worst > kMaxCopies || total < low || total > high) {
            return fail(index, query, check_query(query, rule));
        }
        out[index] = kernel(query);
    }
    return -1;
}

}  // namespace

long long shanten_rows(const BatchRows& rows, long long begin, long long end, std::int8_t* out, BatchError* error) {
    // The common batch (one joker count for every row, any kind allowed or no jokers) has its cost computed in
    // the loop itself, without hand_cost's call and dispatch per row.
    const bool shared = !rows.jokers && !rows.melds;
    if (shared && (rows.joker_scalar == 0 || (rows.joker_kinds & kAllKinds) == kAllKinds))
        return run_rows(rows, SizeRule::kAny, begin, end, out, error,
                        [](const HandQuery& q) { return std::int8_t(unrestricted_cost(q) - 1); });
    return run_rows(rows, SizeRule::kAny, begin, end, out, error,
                    [](const HandQuery& q) { return std::int8_t(hand_cost(q) - 1); });
}

long long is_win_rows(const BatchRows& rows, long long begin, long long end, bool* out, BatchError* error) {
    return run_rows(rows, SizeRule::kComplete, begin, end, out, error,
                    [](const HandQuery& q) { return hand_complete(q); });
}

bool is_win(const HandQuery& q) {
    require_valid(q, SizeRule::kComplete);
    return hand_complete(q);
}

std::vector<int> waits(const HandQuery& q) {
    require_valid(q, SizeRule::kWaiting);
    // A hand one tile completes is one tile short (cost 1): one evaluation rules out the 34 for a hand that is
    // not ready, which most hands asked about are.
    if (hand_cost(q) > 1) return {};
    std::array<std::uint8_t, kNumKinds> counts;
    std::copy(q.counts, q.counts + kNumKinds, counts.begin());
    HandQuery grown = q;
    grown.counts = counts.data();
    std::vector<int> found;
    for (int k = 0; k < kNumKinds; ++k) {
        if (counts[k] >= kMaxCopies) continue;  // a fifth copy does not exist
        ++counts[k];
        if (hand_complete(grown)) found.push_back(k);
        --counts[k];
    }
    return found;
}

}  // namespace hupai
