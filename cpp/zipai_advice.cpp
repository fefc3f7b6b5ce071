// Wai Huzi advice: the shape estimate from a table built once, the waits from the core's best layout.
//
// The shape of one size is a pure function of its ten counts (each 0..4): a table of all 5^10 of them (one
// uint16 each, 19.5 MB, each entry worked out the first time it is asked for) replaces the per-call search. The waits
// cost most: for a hand ready by shape, each card with an unseen copy is tried self-drawn and from another player.
#include "zipai_advice.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <vector>

namespace hupai::zipai {
namespace {

constexpr int kValues = kSizeKinds;
constexpr std::uint32_t kShapeCodes = 9765625;  // 5^10

constexpr std::array<std::uint32_t, kValues + 1> powers_of_five() {
    std::array<std::uint32_t, kValues + 1> out{};
    out[0] = 1;
    for (int i = 1; i <= kValues; ++i) out[i] = out[i - 1] * 5;
    return out;
}
constexpr std::array<std::uint32_t, kValues + 1> kPow5 = powers_of_five();

// A grouping's worth as one integer whose order is the lexicographic order of (2 × groups + partials, 息,
// groups, partials), each field a byte: sums of blocks never carry from one field into the next.
constexpr std::uint32_t worth(int groups, int partials, int xi) {
    return std::uint32_t(2 * groups + partials) << 24 | std::uint32_t(xi) << 16 | std::uint32_t(groups) << 8 |
           std::uint32_t(partials);
}

// A block that starts at a value (WH-7..9): 坎 3 息, pair 1, runs and 门子 0, 二七十 run and 门子 1.
struct Block {
    int cards = 0;                        // distinct values used (each once, or the first 2 or 3 times)
    std::array<std::uint8_t, 3> offsets{};
    std::array<std::uint8_t, 3> amounts{};
    std::uint32_t delta = 0;              // Σ amounts × 5^(value)
    std::uint32_t value = 0;              // worth()
};

struct BlockList {
    std::array<Block, 9> blocks{};
    int count = 0;
};

constexpr std::array<BlockList, kValues> build_blocks() {
    std::array<BlockList, kValues> table{};
    for (int i = 0; i < kValues; ++i) {
        BlockList& list = table[i];
        auto add = [&](int cards, std::array<std::uint8_t, 3> offsets, std::array<std::uint8_t, 3> amounts,
                       int groups, int partials, int xi) {
            for (int c = 0; c < cards; ++c)
                if (i + offsets[c] >= kValues) return;
            Block& block = list.blocks[list.count++];
            block.cards = cards;
            block.offsets = offsets;
            block.amounts = amounts;
            for (int c = 0; c < cards; ++c) block.delta += amounts[c] * kPow5[i + offsets[c]];
            block.value = worth(groups, partials, xi);
        };
        add(1, {0, 0, 0}, {3, 0, 0}, 1, 0, 3);  // 坎
        add(1, {0, 0, 0}, {2, 0, 0}, 0, 1, 1);  // pair
        add(3, {0, 1, 2}, {1, 1, 1}, 1, 0, 0);  // run
        add(2, {0, 1, 0}, {1, 1, 0}, 0, 1, 0);  // 门子 x,x+1
        add(2, {0, 2, 0}, {1, 1, 0}, 0, 1, 0);  // 门子 x,x+2
        if (i == 1) {
            add(3, {0, 5, 8}, {1, 1, 1}, 1, 0, 1);  // 二七十
            add(2, {0, 5, 0}, {1, 1, 0}, 0, 1, 1);  // 二七
            add(2, {0, 8, 0}, {1, 1, 0}, 0, 1, 1);  // 二十
        }
        if (i == 6) add(2, {0, 3, 0}, {1, 1, 0}, 0, 1, 1);  // 七十
    }
    return table;
}
constexpr std::array<BlockList, kValues> kBlocks = build_blocks();

// Packed entry: partials (5 bits), groups (4 bits), 息 (6 bits). A size holds at most 40 cards: at most 13
// groups, 20 partials and 40 息.
constexpr std::uint16_t pack(std::uint32_t value) {
    return std::uint16_t((value & 0xff) | ((value >> 8) & 0xff) << 5 | ((value >> 16) & 0xff) << 9);
}
constexpr std::uint32_t unpack(std::uint16_t entry) {
    return worth((entry >> 5) & 0xf, entry & 0x1f, entry >> 9);
}

// The table, filled on demand: an entry is worked out the first time a hand asks for it (from the entries of
// the smaller codes its options lead to: leave the lowest value's cards single, or take a block starting
// there), and kept. A hand reaches only a small part of the 5^10 codes, so this costs a few microseconds where
// filling the whole table in increasing order cost 0.1 s of every process's first advice. Entries are atomic
// (relaxed): threads that race on one store the same value. A filled entry has its top bit set.
class ShapeTable {
public:
    ShapeTable() : entries_(std::make_unique<std::atomic<std::uint16_t>[]>(kShapeCodes)) {
        entries_[0].store(kFilled, std::memory_order_relaxed);  // no cards: nothing made
    }

    std::uint16_t operator[](std::uint32_t code) const {
        const std::uint16_t entry = entries_[code].load(std::memory_order_relaxed);
        return entry & kFilled ? std::uint16_t(entry & ~kFilled) : fill(code);
    }

private:
    static constexpr std::uint16_t kFilled = 0x8000;  // pack() uses 15 bits

    std::uint16_t fill(std::uint32_t code) const {
        std::array<std::uint8_t, kValues> digits{};
        for (std::uint32_t rest = code, d = 0; d < std::uint32_t(kValues); ++d, rest /= 5) digits[d] = std::uint8_t(rest % 5);
        int low = 0;
        while (digits[low] == 0) ++low;
        std::uint32_t best = unpack((*this)[code - digits[low] * kPow5[low]]);
        const BlockList& list = kBlocks[low];
        for (int b = 0; b < list.count; ++b) {
            const Block& block = list.blocks[b];
            bool fits = true;
            for (int c = 0; c < block.cards; ++c) fits = fits && digits[low + block.offsets[c]] >= block.amounts[c];
            if (!fits) continue;
            best = std::max(best, unpack((*this)[code - block.delta]) + block.value);
        }
        const std::uint16_t entry = pack(best);
        entries_[code].store(std::uint16_t(entry | kFilled), std::memory_order_relaxed);
        return entry;
    }

    std::unique_ptr<std::atomic<std::uint16_t>[]> entries_;
};

const ShapeTable& shape_table() {
    static const ShapeTable table;  // made once, thread-safe; its entries fill as hands ask for them
    return table;
}

std::uint32_t size_code(const std::uint8_t* values) {
    std::uint32_t code = 0;
    for (int i = kValues - 1; i >= 0; --i) code = code * 5 + values[i];
    return code;
}

SuitShape shape_of_code(const ShapeTable& table, std::uint32_t code) {
    const std::uint16_t entry = table[code];
    return SuitShape{(entry >> 5) & 0xf, entry & 0x1f, entry >> 9};
}

// WH-28: six groups and the unit. The formula is the advice's estimate, kept as it was.
ShapeEstimate estimate(const SuitShape& small, const SuitShape& big, int groups_needed) {
    const int groups = std::min(small.groups + big.groups, groups_needed);
    const int room = groups_needed - groups;
    const int partials = small.partials + big.partials;
    return ShapeEstimate{2 * room - std::min(partials, room) + (partials > room ? 0 : 1), small.xi + big.xi};
}

// Σ over the cards that win (with at least min_huxi 息) of unseen copies × the better score. A card with no
// unseen copy adds nothing, so it is not tried. The better score is always the self-drawn one: every layout
// has the same parts and 名堂 either way, and self-drawn it holds at least the 息 (a completed triplet or pair
// 4 rather than 1, WH-29) and at least the 元 factor (内元 ×4 rather than 外元 ×2, WH-34); so a layout that
// reaches min_huxi from another player reaches it self-drawn, with a score at least as high.
//
// Most cards complete no split at all, and the shape table says which do, exactly: a size of 3k cards splits
// into groups alone iff its best grouping has 2 × groups + partials = 2k (k groups, nothing else fits in 3k
// cards), and one of 3k + 2 cards into groups and the 2-card unit iff it has 2k + 1 (k groups and a pair or 门子,
// the units WH-28 allows, which are the table's partials). Only those cards are split and scored.
bool splits(const ShapeTable& table, std::uint32_t code, int cards) {
    if (cards % 3 == 1) return false;
    const SuitShape found = shape_of_code(table, code);
    return 2 * found.groups + found.partials == 2 * (cards / 3) + (cards % 3 == 2 ? 1 : 0);
}

// What a hand at rest's waits are worth, card by card, before the unseen copies weigh them: the score of each
// card that wins (self-drawn, see wait_value), 0 for the others. A pure function of the hand, its declared groups
// and the options, so it is kept: a player judges the same hand at rest again and again (before every claim it
// is offered, and for each discard it weighs), while only the unseen copies change. One direct-mapped memo per
// thread (the advice runs with the GIL released), allocated once; an entry is the whole key, so a collision only
// replaces it.
struct WaitKey {
    std::uint32_t codes[2] = {0, 0};
    std::array<std::uint8_t, kMaxGroups * 5> declared{};  // type, kinds, external + 1 per group
    std::uint8_t groups = 0;
    std::uint8_t options = 0;  // strict, daxiaozihu, extra
    std::int32_t min_huxi = 0;

    bool operator==(const WaitKey& other) const {
        return codes[0] == other.codes[0] && codes[1] == other.codes[1] && groups == other.groups &&
               options == other.options && min_huxi == other.min_huxi && declared == other.declared;
    }
};

struct WaitScores {
    WaitKey key;
    bool used = false;
    std::array<std::uint64_t, kKinds> score{};  // per card: the better score if it wins, else 0
};

constexpr std::size_t kWaitMemo = 2048;  // a power of two

WaitKey wait_key(const Query& query, const std::uint32_t* codes) {
    WaitKey key;
    key.codes[0] = codes[0];
    key.codes[1] = codes[1];
    key.groups = std::uint8_t(query.declared.size());
    for (std::size_t g = 0; g < query.declared.size() && g < std::size_t(kMaxGroups); ++g) {
        const Declared& d = query.declared[g];
        std::uint8_t* at = key.declared.data() + 5 * g;
        at[0] = std::uint8_t(d.type);
        at[1] = d.kinds[0];
        at[2] = d.kinds[1];
        at[3] = d.kinds[2];
        at[4] = std::uint8_t(d.external_kind + 1);
    }
    key.options = std::uint8_t((query.options.strict_xingxing ? 1 : 0) | (query.options.daxiaozihu ? 2 : 0) |
                               (query.options.extra_mingtang ? 4 : 0));
    key.min_huxi = query.options.min_huxi;
    return key;
}

std::size_t wait_slot(const WaitKey& key) {
    std::uint64_t h = (std::uint64_t(key.codes[0]) * 0x9E3779B97F4A7C15ULL) ^ (std::uint64_t(key.codes[1]) + 0x632BE59BD9B4E019ULL);
    for (std::size_t i = 0; i < std::size_t(key.groups) * 5; ++i) h = (h ^ key.declared[i]) * 0x100000001B3ULL;
    h ^= std::uint64_t(key.options) << 8 ^ std::uint64_t(std::uint32_t(key.min_huxi)) << 16;
    h ^= h >> 29;
    return std::size_t(h * 0xBF58476D1CE4E5B9ULL >> 40) & (kWaitMemo - 1);
}

// The per-card scores of a hand at rest (the memo's value), worked out.
void score_waits(Query& query, const std::uint32_t* codes, std::array<std::uint64_t, kKinds>& score) {
    Counts total = query.hand;
    for (const Declared& declared : query.declared) {
        const Part part = declared_part(declared);
        for (int i = 0; i < part.size; ++i) ++total[part.kinds[i]];
    }
    const auto& table = shape_table();
    int cards[2] = {0, 0};
    for (int kind = 0; kind < kKinds; ++kind) cards[kind / kValues] += query.hand[kind];
    score.fill(0);
    for (int card = 0; card < kKinds; ++card) {
        if (total[card] >= kCopies) continue;
        const int size = card / kValues, other = 1 - size;
        if (!splits(table, codes[size] + kPow5[card % kValues], cards[size] + 1) ||
            !splits(table, codes[other], cards[other]))
            continue;
        query.win_card = card;
        query.source = kSelfDrawn;
        const Best own = best_layout(query);
        if (own.found) score[card] = own.layout.score;
    }
    query.win_card = -1;
    query.source = kNoWinCard;
}

std::int64_t wait_value(Query& query, const Counts& unseen) {
    const std::uint32_t codes[2] = {size_code(query.hand.data()), size_code(query.hand.data() + kValues)};
    thread_local std::vector<WaitScores> memo(kWaitMemo);
    thread_local WaitScores unkept;  // a query the key cannot hold (never one the advice makes)
    const bool keyed = query.declared.size() <= std::size_t(kMaxGroups);
    const WaitKey key = keyed ? wait_key(query, codes) : WaitKey{};
    WaitScores& entry = keyed ? memo[wait_slot(key)] : unkept;
    if (!keyed || !entry.used || !(entry.key == key)) {
        score_waits(query, codes, entry.score);
        entry.key = key;
        entry.used = true;
    }
    std::int64_t value = 0;
    for (int card = 0; card < kKinds; ++card)
        value += std::int64_t(unseen[card]) * std::int64_t(entry.score[card]);
    return value;
}

int declared_xi(const std::vector<Declared>& declared) {
    int xi = 0;
    for (const Declared& group : declared) xi += declared_part(group).xi;
    return xi;
}

Judgement judge_with(Query& query, const Counts& unseen, const ShapeEstimate& estimate) {
    Judgement out;
    out.wait_value = estimate.lacking <= 1 ? wait_value(query, unseen) : 0;
    out.closeness = -estimate.lacking;
    out.xi = declared_xi(query.declared) + estimate.xi;
    return out;
}

int groups_needed(const Query& query) { return kMaxGroups - int(query.declared.size()); }

Judgement judge_at_rest(Query& query, const Counts& unseen) {
    return judge_with(query, unseen, shape(query.hand, groups_needed(query)));
}

// Every discard of a hand in a discard state that `forbidden` allows: the judgement of the hand it leaves.
// Only the discarded card's size changes, so the other size's shape is read once.
void rank(Query& query, const Counts& unseen, KindMask forbidden, KindMask& candidates,
          std::array<Judgement, kKinds>& judged, int& best) {
    const auto& table = shape_table();
    const std::uint32_t codes[2] = {size_code(query.hand.data()), size_code(query.hand.data() + kValues)};
    const SuitShape sizes[2] = {shape_of_code(table, codes[0]), shape_of_code(table, codes[1])};
    const int needed = groups_needed(query);
    candidates = 0;
    best = -1;
    for (int kind = 0; kind < kKinds; ++kind) {
        if (query.hand[kind] == 0 || (forbidden >> kind & 1)) continue;
        const int size = kind / kValues;
        const SuitShape changed = shape_of_code(table, codes[size] - kPow5[kind % kValues]);
        const ShapeEstimate left = size == 0 ? estimate(changed, sizes[1], needed) : estimate(sizes[0], changed, needed);
        --query.hand[kind];
        judged[kind] = judge_with(query, unseen, left);
        ++query.hand[kind];
        candidates |= KindMask{1} << kind;
        if (best < 0 || judged[kind] > judged[best]) best = kind;
    }
}

// WH-7: the cards that make a run with two held cards of one size (empty unless they are a 门子).
KindMask completing_cards(int low, int high) {
    if (low > high) std::swap(low, high);
    KindMask out = 0;
    if (low == high || low / kValues != high / kValues) return out;
    const int base = low / kValues * kValues, a = low - base, b = high - base;
    for (int start = 0; start + 2 < kValues; ++start)
        if (a >= start && b <= start + 2)
            for (int v = start; v <= start + 2; ++v)
                if (v != a && v != b) out |= KindMask{1} << (base + v);
    const bool red_a = a == 1 || a == 6 || a == 9, red_b = b == 1 || b == 6 || b == 9;
    if (red_a && red_b)
        for (int v : {1, 6, 9})
            if (v != a && v != b) out |= KindMask{1} << (base + v);
    return out;
}

int copies_of(const Query& query, int card) {
    int copies = query.hand[card];
    for (const Declared& declared : query.declared) {
        const Part part = declared_part(declared);
        for (int i = 0; i < part.size; ++i) copies += part.kinds[i] == card;
    }
    return copies;
}

// WH-14, WH-15 as the advice weighs them: a 飘 onto one's own 碰 is always taken; a 飘 of three held cards is
// taken when the hand at rest after it judges better; a 碰 or 吃 when the best discard after it leaves a better
// hand at rest (a 吃 locks the chowed card and the 门子's other completing card, WH-26).
ClaimJudgement judge_claim(AdviceQuery& advice, const Claim& claim, const Judgement* before) {
    Query& query = advice.query;
    Counts seen = advice.unseen;
    if (seen[claim.card]) --seen[claim.card];  // the offered card is seen now
    ClaimJudgement out;
    out.before = before ? *before : judge_at_rest(query, seen);
    const int card = claim.card;
    if (claim.kind == kClaimPiao && query.hand[card] < 3) {
        out.verdict = kTake;  // onto one's own 碰: the same 1 息, a sure 外元, no discard
        return out;
    }
    const int need = claim.kind == kClaimPiao ? 3 : claim.kind == kClaimPeng ? 2 : 0;
    const bool has_menzi = claim.low >= 0 && claim.low < kKinds && claim.high >= 0 && claim.high < kKinds;
    if (query.hand[card] < need ||
        (claim.kind == kClaimChi && (!has_menzi || query.hand[claim.low] < 1 || query.hand[claim.high] < 1))) {
        out.verdict = kCannot;
        return out;
    }
    Declared group;
    group.kinds = {std::uint8_t(card), std::uint8_t(card), std::uint8_t(card)};
    group.external_kind = card;
    if (claim.kind == kClaimChi) {
        std::array<std::uint8_t, 3> kinds{std::uint8_t(claim.low), std::uint8_t(claim.high), std::uint8_t(card)};
        std::sort(kinds.begin(), kinds.end());
        const bool run = kinds[0] != kinds[1] && kinds[1] != kinds[2] && kinds[0] / kValues == kinds[2] / kValues &&
                         ((kinds[1] == kinds[0] + 1 && kinds[2] == kinds[0] + 2) ||
                          (kinds[0] % kValues == 1 && kinds[1] % kValues == 6 && kinds[2] % kValues == 9));
        if (!run || (claim.low == claim.high) || (claim.low == card) || (claim.high == card)) {
            out.verdict = kNotARun;
            return out;
        }
        group.type = kChi;
        group.kinds = kinds;
    } else {
        group.type = claim.kind == kClaimPiao ? kPiao : kPeng;
    }
    if (copies_of(query, card) >= kCopies) {
        out.verdict = kFifthCopy;
        return out;
    }
    const Counts saved = query.hand;
    query.declared.push_back(group);
    if (claim.kind == kClaimPiao) {
        query.hand[card] -= 3;
        out.after = judge_at_rest(query, seen);
        out.judged_after = true;
    } else {
        KindMask locked = advice.forbidden;
        if (claim.kind == kClaimPeng) {
            query.hand[card] -= 2;
        } else {
            --query.hand[claim.low];
            --query.hand[claim.high];
            locked |= KindMask{1} << card | completing_cards(claim.low, claim.high);
        }
        KindMask candidates = 0;
        std::array<Judgement, kKinds> judged{};
        int best = -1;
        rank(query, seen, locked, candidates, judged, best);
        if (best >= 0) {
            out.after = judged[best];
            out.judged_after = true;
        }
    }
    query.declared.pop_back();
    query.hand = saved;
    out.verdict = out.judged_after && out.after > out.before ? kTake : kDecline;
    return out;
}

int held(const Counts& hand) {
    int total = 0;
    for (std::uint8_t count : hand) total += count;
    return total;
}

}  // namespace

bool operator<(const Judgement& a, const Judgement& b) {
    if (a.wait_value != b.wait_value) return a.wait_value < b.wait_value;
    if (a.closeness != b.closeness) return a.closeness < b.closeness;
    return a.xi < b.xi;
}

SuitShape suit_shape(const std::uint8_t* values) { return shape_of_code(shape_table(), size_code(values)); }

ShapeEstimate shape(const Counts& hand, int groups_needed) {
    const auto& table = shape_table();
    return estimate(shape_of_code(table, size_code(hand.data())), shape_of_code(table, size_code(hand.data() + kValues)),
                    groups_needed);
}

bool splits_at_all(const Query& query) {
    Counts hand = query.hand;
    if (query.win_card >= 0 && query.win_card < kKinds) ++hand[query.win_card];
    const auto& table = shape_table();
    int cards[2] = {0, 0};
    for (int kind = 0; kind < kKinds; ++kind) cards[kind / kValues] += hand[kind];
    return splits(table, size_code(hand.data()), cards[0]) && splits(table, size_code(hand.data() + kValues), cards[1]);
}

bool ready(const Query& query) {
    const Counts total = with_declared(query);
    Query trial = query;
    for (int card = 0; card < kKinds; ++card) {
        if (total[card] >= kCopies) continue;  // as waits(): no fifth copy to win on
        trial.win_card = card;
        if (!splits_at_all(trial)) continue;  // no layout at all, from either source
        // Self-drawn alone: a layout's 息 from another's card are never more (its winning triplet or pair counts
        // the held 息 instead of the self-drawn ones, the rest alike), so a win from another implies this one.
        trial.source = kSelfDrawn;
        if (reaches_min_huxi(trial)) return true;
    }
    return false;
}

std::string check_advice(const AdviceQuery& advice) {
    const bool at_rest = held(advice.query.hand) % 3 == 1;
    std::string problem = check(advice.query, at_rest);
    if (!problem.empty()) return problem;
    for (int kind = 0; kind < kKinds; ++kind)
        if (advice.unseen[kind] > kCopies)
            return "unseen count " + std::to_string(advice.unseen[kind]) + " of card " + std::to_string(kind) +
                   " is outside 0..4";
    if (advice.forbidden >> kKinds) return "forbidden cards must be a mask of cards 0..19";
    if (!advice.claims.empty() && !at_rest)
        return "claims are judged on a hand at rest (3m+1 cards), got " + std::to_string(held(advice.query.hand));
    for (const Claim& claim : advice.claims) {
        if (claim.kind > kClaimChi) return "a claim is 0 (飘), 1 (碰) or 2 (吃)";
        if (claim.card < 0 || claim.card >= kKinds)
            return "the offered card " + std::to_string(claim.card) + " is not in 0..19";
    }
    return "";
}

void advise(AdviceQuery& advice, AdviceResult& out) {
    Query& query = advice.query;
    query.win_card = -1;
    query.source = kNoWinCard;
    if (held(query.hand) % 3 == 2) {
        rank(query, advice.unseen, advice.forbidden, out.candidates, out.discards, out.best_discard);
        return;
    }
    out.at_rest = true;
    out.rest = judge_at_rest(query, advice.unseen);
    for (std::size_t i = 0; i < advice.claims.size(); ++i) {
        // Offers of one card share the hand as it is (the usual case: one card offered, several ways to take it).
        const ClaimJudgement* same = nullptr;
        for (std::size_t j = 0; j < i && !same; ++j)
            if (advice.claims[j].card == advice.claims[i].card) same = &out.claims[j];
        out.claims[i] = judge_claim(advice, advice.claims[i], same ? &same->before : nullptr);
    }
}

}  // namespace hupai::zipai
