// Standard-form deficiency: four table entries and a min-plus combine.
//
// Each entry widens into a 16-byte vector: lanes 0..4 = tiles missing for m melds without the pair,
// lanes 8..12 = with the pair, the other lanes 15 (never a minimum). The combine of two groups is then
// r[m] = min_k a[k] + b[m - k] over both pair placements, done with byte shuffles, saturating adds and byte
// minimums where the CPU has SSSE3 (two groups at a time with AVX2), and with plain loops elsewhere.
#include <algorithm>
#include <stdexcept>

#include "analysis.hpp"
#include "tables.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define HUPAI_X86 1
#endif

namespace hupai {
namespace {

constexpr int kBig = 99;

// ------------------------------------------------------------------ portable version

struct MeldPairCosts {
    int none[5];  // m melds, no pair
    int pair[5];  // m melds and the pair
};

inline MeldPairCosts unpack(GroupEntry entry) {
    MeldPairCosts out;
    for (int m = 0; m < 5; ++m) out.none[m] = entry_value(entry, m, 0), out.pair[m] = entry_value(entry, m, 1);
    return out;
}

template <int N>
inline MeldPairCosts combine(const MeldPairCosts& a, const MeldPairCosts& b) {
    MeldPairCosts out;
    for (int m = 0; m <= N; ++m) {
        int none = kBig, pair = kBig;
        for (int k = 0; k <= m; ++k) {
            none = std::min(none, a.none[k] + b.none[m - k]);
            pair = std::min(pair, std::min(a.none[k] + b.pair[m - k], a.pair[k] + b.none[m - k]));
        }
        out.none[m] = none;
        out.pair[m] = pair;
    }
    return out;
}

template <int N>
int portable_deficiency_n(const Tables& tables, const std::uint8_t* counts) {
    const MeldPairCosts left = combine<N>(unpack(tables.suit(counts)), unpack(tables.suit(counts + 9)));
    const MeldPairCosts right =
        combine<N>(unpack(tables.suit(counts + 18)), unpack(tables.honors(counts + kFirstHonor)));
    int best = kBig;
    for (int m = 0; m <= N; ++m)
        best = std::min(best, std::min(left.none[m] + right.pair[N - m], left.pair[m] + right.none[N - m]));
    return best;
}

int portable_deficiency(const std::uint8_t* counts, int melds_needed) {
    const Tables& tables = Tables::get();
    switch (melds_needed) {
        case 0: return portable_deficiency_n<0>(tables, counts);
        case 1: return portable_deficiency_n<1>(tables, counts);
        case 2: return portable_deficiency_n<2>(tables, counts);
        case 3: return portable_deficiency_n<3>(tables, counts);
        default: return portable_deficiency_n<4>(tables, counts);
    }
}

// ------------------------------------------------------------------ SSSE3 version

#ifdef HUPAI_X86
// Shuffle controls, built once. Lane 7 and lane 15 of every vector hold padding (>= 15).
struct Shuffles {
    alignas(16) std::uint8_t broadcast_none[5][16];  // every lane <- a[k]
    alignas(16) std::uint8_t broadcast_pair[5][16];  // pair lanes <- a[8 + k], others <- padding
    alignas(16) std::uint8_t shift_same[5][16];      // lane m <- b[m - k], lane 8 + m <- b[8 + m - k]
    alignas(16) std::uint8_t shift_cross[5][16];     // lane 8 + m <- b[m - k], others <- padding
    alignas(16) std::uint8_t reverse[5][16];         // for the final step with N melds: lane m <- b[8 + N - m],
                                                     // lane 8 + m <- b[N - m]; lanes beyond N <- padding
    Shuffles() {
        for (int k = 0; k < 5; ++k)
            for (int lane = 0; lane < 16; ++lane) {
                const int half = lane / 8, m = lane % 8;
                const bool real = m < 5 && m >= k;
                broadcast_none[k][lane] = std::uint8_t(k);
                broadcast_pair[k][lane] = std::uint8_t(half ? 8 + k : 7);
                shift_same[k][lane] = std::uint8_t(real ? 8 * half + m - k : 8 * half + 7);
                shift_cross[k][lane] = std::uint8_t(half && real ? m - k : 7);
                const int n = k;
                reverse[n][lane] = std::uint8_t(m <= n ? (half ? n - m : 8 + n - m) : 7);
            }
    }
    static const Shuffles& get() {
        static const Shuffles shuffles;
        return shuffles;
    }
};

__attribute__((target("ssse3"))) inline __m128i widen(GroupEntry entry) {
    const __m128i packed = _mm_cvtsi64_si128(static_cast<long long>(entry));
    const __m128i low_nibbles = _mm_and_si128(packed, _mm_set1_epi8(0x0F));
    const __m128i high_nibbles = _mm_and_si128(_mm_srli_epi16(packed, 4), _mm_set1_epi8(0x0F));
    return _mm_unpacklo_epi8(low_nibbles, high_nibbles);
}

__attribute__((target("ssse3"))) inline __m128i control(const std::uint8_t* bytes) {
    return _mm_load_si128(reinterpret_cast<const __m128i*>(bytes));
}

__attribute__((target("ssse3"))) inline __m128i combine_vectors(__m128i a, __m128i b, const Shuffles& s) {
    __m128i result = _mm_set1_epi8(-1);
    for (int k = 0; k < 5; ++k) {
        const __m128i same = _mm_adds_epu8(_mm_shuffle_epi8(a, control(s.broadcast_none[k])),
                                           _mm_shuffle_epi8(b, control(s.shift_same[k])));
        const __m128i cross = _mm_adds_epu8(_mm_shuffle_epi8(a, control(s.broadcast_pair[k])),
                                            _mm_shuffle_epi8(b, control(s.shift_cross[k])));
        result = _mm_min_epu8(result, _mm_min_epu8(same, cross));
    }
    return result;
}

// Lanes beyond N meet padding; pairing left lane m with right lane N - m across the halves leaves the
// minimum over all lanes as the answer for (N melds, pair).
__attribute__((target("ssse3"))) inline int finish(__m128i left, __m128i right, int melds_needed,
                                                   const Shuffles& s) {
    __m128i sums = _mm_adds_epu8(left, _mm_shuffle_epi8(right, control(s.reverse[melds_needed])));
    sums = _mm_min_epu8(sums, _mm_srli_si128(sums, 8));
    sums = _mm_min_epu8(sums, _mm_srli_si128(sums, 4));
    sums = _mm_min_epu8(sums, _mm_srli_si128(sums, 2));
    sums = _mm_min_epu8(sums, _mm_srli_si128(sums, 1));
    return _mm_cvtsi128_si32(sums) & 0xFF;
}

__attribute__((target("ssse3"))) int ssse3_deficiency(const std::uint8_t* counts, int melds_needed) {
    const Tables& tables = Tables::get();
    const Shuffles& s = Shuffles::get();
    const __m128i left = combine_vectors(widen(tables.suit(counts)), widen(tables.suit(counts + 9)), s);
    const __m128i right =
        combine_vectors(widen(tables.suit(counts + 18)), widen(tables.honors(counts + kFirstHonor)), s);
    return finish(left, right, melds_needed, s);
}

// AVX2: both combines at once, (man, sou) in one register against (pin, honors) in the other; byte shuffles
// work within each 128-bit half, so the SSSE3 controls serve unchanged.
__attribute__((target("avx2"))) inline __m256i widen_pair(GroupEntry low, GroupEntry high) {
    const __m256i packed = _mm256_set_epi64x(0, static_cast<long long>(high), 0, static_cast<long long>(low));
    const __m256i mask = _mm256_set1_epi8(0x0F);
    return _mm256_unpacklo_epi8(_mm256_and_si256(packed, mask), _mm256_and_si256(_mm256_srli_epi16(packed, 4), mask));
}

__attribute__((target("avx2"))) inline __m256i control2(const std::uint8_t* bytes) {
    return _mm256_broadcastsi128_si256(_mm_load_si128(reinterpret_cast<const __m128i*>(bytes)));
}

__attribute__((target("avx2"))) int avx2_deficiency(const std::uint8_t* counts, int melds_needed) {
    const Tables& tables = Tables::get();
    const Shuffles& s = Shuffles::get();
    const __m256i a = widen_pair(tables.suit(counts), tables.suit(counts + 18));
    const __m256i b = widen_pair(tables.suit(counts + 9), tables.honors(counts + kFirstHonor));
    __m256i result = _mm256_set1_epi8(-1);
    for (int k = 0; k < 5; ++k) {
        const __m256i same = _mm256_adds_epu8(_mm256_shuffle_epi8(a, control2(s.broadcast_none[k])),
                                              _mm256_shuffle_epi8(b, control2(s.shift_same[k])));
        const __m256i cross = _mm256_adds_epu8(_mm256_shuffle_epi8(a, control2(s.broadcast_pair[k])),
                                               _mm256_shuffle_epi8(b, control2(s.shift_cross[k])));
        result = _mm256_min_epu8(result, _mm256_min_epu8(same, cross));
    }
    return finish(_mm256_castsi256_si128(result), _mm256_extracti128_si256(result, 1), melds_needed, s);
}
#endif

using DeficiencyFunction = int (*)(const std::uint8_t*, int);

DeficiencyFunction choose_implementation() {
#ifdef HUPAI_X86
    if (__builtin_cpu_supports("avx2")) return avx2_deficiency;
    if (__builtin_cpu_supports("ssse3")) return ssse3_deficiency;
#endif
    return portable_deficiency;
}

}  // namespace

int standard_deficiency(const std::uint8_t* counts, int melds_needed) {
    static const DeficiencyFunction implementation = choose_implementation();
    return implementation(counts, melds_needed);
}

namespace {

// StandardPartials' two steps. Its rest_ rows use the SIMD lane layout (lanes 0..4: tiles missing for m melds
// without the pair, 8..12: with it; the other lanes padding), which the portable steps read as plain bytes.
template <typename Row>
void portable_partials(const Tables& tables, const std::uint8_t* counts, Row* rest) {
    const MeldPairCosts groups[4] = {unpack(tables.suit(counts)), unpack(tables.suit(counts + 9)),
                                     unpack(tables.suit(counts + 18)), unpack(tables.honors(counts + kFirstHonor))};
    // Six combines for the four "all but one" partials: (0 1) with 2 or 3, (2 3) with 0 or 1.
    const MeldPairCosts low = combine<4>(groups[0], groups[1]), high = combine<4>(groups[2], groups[3]);
    const MeldPairCosts others[4] = {combine<4>(groups[1], high), combine<4>(groups[0], high),
                                     combine<4>(low, groups[3]), combine<4>(low, groups[2])};
    for (int group = 0; group < 4; ++group)
        for (int lane = 0; lane < 16; ++lane) {
            const int m = lane % 8;
            const int value = m > 4 ? 255 : lane < 8 ? others[group].none[m] : others[group].pair[m];
            rest[group][lane] = std::uint8_t(std::min(value, 255));
        }
}

int portable_finish(const std::uint8_t* rest, GroupEntry entry, int n) {
    int best = kBig;
    for (int m = 0; m <= n; ++m)
        best = std::min(best, std::min(rest[m] + entry_value(entry, n - m, 1),
                                       rest[8 + m] + entry_value(entry, n - m, 0)));
    return best;
}

#ifdef HUPAI_X86
template <typename Row>
__attribute__((target("ssse3"))) void ssse3_partials(const Tables& tables, const std::uint8_t* counts, Row* rest) {
    const Shuffles& s = Shuffles::get();
    const __m128i g0 = widen(tables.suit(counts)), g1 = widen(tables.suit(counts + 9));
    const __m128i g2 = widen(tables.suit(counts + 18)), g3 = widen(tables.honors(counts + kFirstHonor));
    const __m128i low = combine_vectors(g0, g1, s), high = combine_vectors(g2, g3, s);
    _mm_store_si128(reinterpret_cast<__m128i*>(rest[0]), combine_vectors(g1, high, s));
    _mm_store_si128(reinterpret_cast<__m128i*>(rest[1]), combine_vectors(g0, high, s));
    _mm_store_si128(reinterpret_cast<__m128i*>(rest[2]), combine_vectors(low, g3, s));
    _mm_store_si128(reinterpret_cast<__m128i*>(rest[3]), combine_vectors(low, g2, s));
}

__attribute__((target("ssse3"))) int ssse3_finish(const std::uint8_t* rest, GroupEntry entry, int n) {
    return finish(_mm_load_si128(reinterpret_cast<const __m128i*>(rest)), widen(entry), n, Shuffles::get());
}

// A group's table codes, changed a tile at a time (Tables::suit_by_code, honors_by_index): a suit's two base-5
// codes, the honors' histogram index in `prefix`.
struct GroupCode {
    unsigned prefix = 0, suffix = 0;
};

constexpr unsigned kPow5[5] = {1, 5, 25, 125, 625};
constexpr unsigned kHonorStep[4] = {1, 7, 56, 448};  // the histogram index when a count goes c -> c + 1

inline GroupCode code_of(const std::uint8_t* counts, int group) {
    if (group == 3) return {Tables::honor_index(counts + kFirstHonor), 0};
    return {Tables::suit_prefix(counts + 9 * group), Tables::suit_suffix(counts + 9 * group)};
}

// The code with one tile more (+1) or fewer (-1) of `kind`, held `held` times before the change.
inline GroupCode changed(GroupCode code, int kind, int held, int change) {
    if (kind >= kFirstHonor) {
        code.prefix += change > 0 ? kHonorStep[held] : 0u - kHonorStep[held - 1];
        return code;
    }
    const int place = kind % 9;
    unsigned& part = place < 5 ? code.prefix : code.suffix;
    part += change > 0 ? kPow5[place % 5] : 0u - kPow5[place % 5];
    return code;
}

inline GroupEntry entry_of(const Tables& tables, GroupCode code, int group) {
    return group < 3 ? tables.suit_by_code(code.prefix, code.suffix) : tables.honors_by_index(code.prefix);
}

__attribute__((target("ssse3"))) inline int finish_reversed(__m128i left, __m128i reversed) {
    __m128i sums = _mm_adds_epu8(left, reversed);
    sums = _mm_min_epu8(sums, _mm_srli_si128(sums, 8));
    sums = _mm_min_epu8(sums, _mm_srli_si128(sums, 4));
    sums = _mm_min_epu8(sums, _mm_srli_si128(sums, 2));
    sums = _mm_min_epu8(sums, _mm_srli_si128(sums, 1));
    return _mm_cvtsi128_si32(sums) & 0xFF;
}

// Every (discard, draw) pair of a complete-size hand at once. A discard changes its own group and a draw one
// group, so: the six pairs of base groups and the four "all but one" partials are combined once; per discard,
// its group's entry less the tile, combined with the base pair of the two groups left, serves all nine draws
// of a third group (a finish each, the draw's entry shuffled once for the whole call); draws into the
// discard's own group look up that group's entry less one tile and plus another. Each result is exactly
// standard_deficiency of the hand after that discard and draw (min-plus combining is associative and
// commutative), with about a third of the table look-ups and under half the combines that StandardPartials
// takes per discard.
__attribute__((target("ssse3"))) void ssse3_discard_draws(const Tables& tables, const std::uint8_t* counts,
                                                          int melds_needed, DiscardDraws& out) {
    static constexpr int kFirst[4] = {0, 9, 18, kFirstHonor}, kEnd[4] = {9, 18, kFirstHonor, kNumKinds};
    const Shuffles& s = Shuffles::get();
    const __m128i reverse = control(s.reverse[melds_needed]);
    GroupCode codes[4];
    __m128i base[4];
    for (int group = 0; group < 4; ++group) {
        codes[group] = code_of(counts, group);
        base[group] = widen(entry_of(tables, codes[group], group));
    }
    // pairs[a][b] (a < b): groups a and b combined; rest[g]: all groups but g, which a group's own entry finishes.
    __m128i pairs[4][4];
    for (int a = 0; a < 4; ++a)
        for (int b = a + 1; b < 4; ++b) pairs[a][b] = combine_vectors(base[a], base[b], s);
    __m128i rest[4] = {combine_vectors(base[1], pairs[2][3], s), combine_vectors(base[0], pairs[2][3], s),
                       combine_vectors(pairs[0][1], base[3], s), combine_vectors(pairs[0][1], base[2], s)};
    for (int group = 0; group < 4; ++group) rest[group] = _mm_shuffle_epi8(rest[group], reverse);
    // Per draw into the base hand: its group's entry with one more tile, shuffled for finish_reversed.
    __m128i plus[kNumKinds];
    for (int draw = 0; draw < kNumKinds; ++draw) {
        const int group = draw / 9;
        if (counts[draw] < kMaxCopies)
            plus[draw] = _mm_shuffle_epi8(widen(entry_of(tables, changed(codes[group], draw, counts[draw], 1), group)),
                                          reverse);
    }
    // Discards of one group that leave it the same entry (two lone honors, often two lone suit tiles) give the
    // same deficiency for every draw into another group: those are copied from the first such discard's row.
    GroupEntry seen_entry[4][9];
    int seen_row[4][9], seen_in[4] = {0, 0, 0, 0};
    std::uint8_t work[kNumKinds];
    std::copy(counts, counts + kNumKinds, work);
    for (int discard = 0; discard < kNumKinds; ++discard) {
        if (work[discard] == 0) continue;
        const int own = discard / 9;
        const GroupCode less_code = changed(codes[own], discard, work[discard], -1);
        --work[discard];
        const GroupEntry less_entry = entry_of(tables, less_code, own);
        const __m128i less = widen(less_entry);
        out.after[discard] = std::uint8_t(finish_reversed(less, rest[own]));
        std::uint8_t* row = out.draw[discard];
        // Draws into the discard's own group: the rest of the hand as it was, this group changed twice.
        for (int draw = kFirst[own]; draw < kEnd[own]; ++draw)
            row[draw] = work[draw] >= kMaxCopies ? 255
                        : draw == discard
                            ? std::uint8_t(finish_reversed(base[own], rest[own]))
                            : std::uint8_t(finish_reversed(
                                  widen(entry_of(tables, changed(less_code, draw, work[draw], 1), own)), rest[own]));
        int same = -1;
        for (int i = 0; i < seen_in[own]; ++i)
            if (seen_entry[own][i] == less_entry) same = seen_row[own][i];
        if (same >= 0) {
            const std::uint8_t* from = out.draw[same];
            for (int group = 0; group < 4; ++group)
                if (group != own) std::copy(from + kFirst[group], from + kEnd[group], row + kFirst[group]);
        } else {
            seen_entry[own][seen_in[own]] = less_entry;
            seen_row[own][seen_in[own]++] = discard;
            for (int group = 0; group < 4; ++group) {
                if (group == own) continue;
                // The two groups neither the discard nor the draw touches.
                int first = -1, second = -1;
                for (int other = 0; other < 4; ++other)
                    if (other != own && other != group) (first < 0 ? first : second) = other;
                const __m128i left = combine_vectors(less, pairs[first][second], s);
                for (int draw = kFirst[group]; draw < kEnd[group]; ++draw)
                    row[draw] = work[draw] < kMaxCopies ? std::uint8_t(finish_reversed(left, plus[draw])) : 255;
            }
        }
        ++work[discard];
    }
}
#endif

bool partials_in_simd() {
#ifdef HUPAI_X86
    static const bool simd = __builtin_cpu_supports("ssse3");
    return simd;
#else
    return false;
#endif
}

}  // namespace

StandardPartials::StandardPartials(const std::uint8_t* counts, int melds_needed, bool portable)
    : tables_(&Tables::get()), melds_needed_(melds_needed), simd_(!portable && partials_in_simd()) {
#ifdef HUPAI_X86
    if (simd_) {
        ssse3_partials(*tables_, counts, rest_);
        return;
    }
#endif
    portable_partials(*tables_, counts, rest_);
}

int StandardPartials::deficiency(const std::uint8_t* counts, int group) const {
    const GroupEntry entry = group < 3 ? tables_->suit(counts + 9 * group) : tables_->honors(counts + kFirstHonor);
#ifdef HUPAI_X86
    if (simd_) return ssse3_finish(rest_[group], entry, melds_needed_);
#endif
    return portable_finish(rest_[group], entry, melds_needed_);
}

bool discard_draws_in_simd() { return partials_in_simd(); }

void standard_discard_draws(const std::uint8_t* counts, int melds_needed, DiscardDraws& out) {
#ifdef HUPAI_X86
    if (partials_in_simd()) {
        ssse3_discard_draws(Tables::get(), counts, melds_needed, out);
        return;
    }
#endif
    (void)counts, (void)melds_needed, (void)out;
    throw std::logic_error("standard_discard_draws needs SSSE3 (ask discard_draws_in_simd first)");
}

int standard_deficiency_variant(const std::uint8_t* counts, int melds_needed, int variant) {
#ifdef HUPAI_X86
    if (variant == 2 && __builtin_cpu_supports("avx2")) return avx2_deficiency(counts, melds_needed);
    if (variant == 1 && __builtin_cpu_supports("ssse3")) return ssse3_deficiency(counts, melds_needed);
#endif
    (void)variant;
    return portable_deficiency(counts, melds_needed);
}

}  // namespace hupai
