// Restricted jokers: a dynamic programme over each suit for the standard form, slot choices for the
// special forms. Exact, and slower than the tables (tens of microseconds), which serve unrestricted jokers.
#include "restricted.hpp"

#include <algorithm>
#include <array>

#include "knitted.hpp"

namespace hupai {
namespace {

constexpr int kBig = 99;
constexpr int kFullHand = 14;  // special forms: 14 concealed tiles

// ---------------------------------------------------------------- restricted jokers (slow, exact)
//
// When jokers may stand only for some kinds, a target's cost is max(0, A - jokers) + D, where A counts its
// missing tiles of allowed kinds and D the others. Tracking A saturated at `jokers` (the excess moved into D)
// keeps the dynamic programme exact and small.

constexpr int kJokerStates = kMaxJokers + 1;
using RestrictedCosts = std::array<std::array<std::array<int, kJokerStates>, 2>, 5>;  // [m][p][a] -> min D

inline void add_missing(int missing, bool allowed, int jokers, int& a, int& d) {
    if (!allowed) {
        d += missing;
        return;
    }
    a += missing;
    if (a > jokers) d += a - jokers, a = jokers;
}

RestrictedCosts fill_big() {
    RestrictedCosts costs;
    for (auto& by_pair : costs)
        for (auto& by_a : by_pair) by_a.fill(kBig);
    return costs;
}

// Positions left to right; the state carries how many chows started one and two positions back.
RestrictedCosts group_costs_restricted(const std::uint8_t* counts, int length, bool chows, KindMask allowed,
                                       int jokers) {
    // dp[s1][s2][m][p][a]: s1 chows started at the previous position, s2 two positions back.
    using Layer = std::array<std::array<RestrictedCosts, 5>, 5>;
    Layer dp, next;
    for (auto& row : dp)
        for (auto& cell : row) cell = fill_big();
    dp[0][0][0][0][0] = 0;
    for (int i = 0; i < length; ++i) {
        for (auto& row : next)
            for (auto& cell : row) cell = fill_big();
        const bool allowed_here = (allowed >> i) & 1;
        const int max_start = (chows && i <= length - 3) ? 4 : 0;
        for (int s1 = 0; s1 <= 4; ++s1)
            for (int s2 = 0; s1 + s2 <= 4; ++s2)
                for (int m = s1 + s2; m <= 4; ++m)
                    for (int p = 0; p <= 1; ++p)
                        for (int a = 0; a <= jokers; ++a) {
                            const int d = dp[s1][s2][m][p][a];
                            if (d >= kBig) continue;
                            for (int start = 0; start <= max_start && m + start <= 4; ++start)
                                for (int pung = 0; pung <= 1 && m + start + pung <= 4; ++pung)
                                    for (int pair = 0; pair + p <= 1; ++pair) {
                                        const int need = s1 + s2 + start + 3 * pung + 2 * pair;
                                        if (need > kMaxCopies) continue;
                                        int na = a, nd = d;
                                        add_missing(std::max(0, need - counts[i]), allowed_here, jokers, na, nd);
                                        int& slot = next[start][s1][m + start + pung][p + pair][na];
                                        slot = std::min(slot, nd);
                                    }
                        }
        std::swap(dp, next);
    }
    return dp[0][0];
}

RestrictedCosts combine_restricted(const RestrictedCosts& x, const RestrictedCosts& y, int jokers) {
    RestrictedCosts out = fill_big();
    for (int m1 = 0; m1 <= 4; ++m1)
        for (int m2 = 0; m1 + m2 <= 4; ++m2)
            for (int p1 = 0; p1 <= 1; ++p1)
                for (int p2 = 0; p1 + p2 <= 1; ++p2)
                    for (int a1 = 0; a1 <= jokers; ++a1) {
                        if (x[m1][p1][a1] >= kBig) continue;
                        for (int a2 = 0; a2 <= jokers; ++a2) {
                            if (y[m2][p2][a2] >= kBig) continue;
                            const int a = std::min(a1 + a2, jokers);
                            const int d = x[m1][p1][a1] + y[m2][p2][a2] + (a1 + a2 - a);
                            int& slot = out[m1 + m2][p1 + p2][a];
                            slot = std::min(slot, d);
                        }
                    }
    return out;
}

int standard_cost_restricted(const HandQuery& q) {
    const int needed = kMaxMelds - q.melds;
    RestrictedCosts total = fill_big();
    total[0][0][0] = 0;
    for (int group = 0; group < 4; ++group) {
        const int first = 9 * group;
        const int length = group == 3 ? kNumHonors : kSuitKinds;
        const RestrictedCosts costs =
            group_costs_restricted(q.counts + first, length, group < 3, q.joker_kinds >> first, q.jokers);
        total = combine_restricted(total, costs, q.jokers);
    }
    int best = kBig;
    for (int a = 0; a <= q.jokers; ++a) best = std::min(best, total[needed][1][a]);
    return best;
}

// ---------------------------------------------------------------- special forms
//
// Each special form is a choice of "slots" (pair slots, single tiles) whose missing tiles are either allowed
// for jokers or not. The cost of a choice is max(0, A - jokers) + D.

inline int slot_cost(int allowed_missing, int other_missing, int jokers) {
    return std::max(0, allowed_missing - jokers) + other_missing;
}

// Choose `wanted` pair slots. Categories: free (nothing missing), one missing (allowed / not), two missing
// (allowed / not). Free slots are always taken first.
int pair_slots_cost(int free, const int one[2], const int two[2], int wanted, int jokers) {
    const int take_free = std::min(free, wanted);
    const int rest = wanted - take_free;
    int best = kBig;
    for (int x1 = 0; x1 <= std::min(rest, one[1]); ++x1)          // one missing, allowed
        for (int y1 = 0; x1 + y1 <= rest && y1 <= one[0]; ++y1)   // one missing, not allowed
            for (int x2 = 0; x1 + y1 + x2 <= rest && x2 <= two[1]; ++x2) {
                const int y2 = rest - x1 - y1 - x2;                // two missing, not allowed
                if (y2 > two[0]) continue;
                best = std::min(best, slot_cost(x1 + 2 * x2, y1 + 2 * y2, jokers));
            }
    return best;
}

int seven_pairs_cost(const HandQuery& q, bool quads_count_twice) {
    int free = 0, one[2] = {0, 0}, two[2] = {0, 0};
    for (int k = 0; k < kNumKinds; ++k) {
        const int c = q.counts[k];
        const int allowed = int((q.joker_kinds >> k) & 1);
        // A kind offers one pair slot, or two when a quad counts as two pairs.
        const int first = std::max(0, 2 - c);
        if (first == 0) ++free; else if (first == 1) ++one[allowed]; else ++two[allowed];
        if (quads_count_twice) {
            const int second = std::max(0, 2 - std::max(0, c - 2));
            if (second == 0) ++free; else if (second == 1) ++one[allowed]; else ++two[allowed];
        }
    }
    return pair_slots_cost(free, one, two, 7, q.jokers);
}

int thirteen_orphans_cost(const HandQuery& q) {
    int allowed_missing = 0, other_missing = 0;
    bool has_duplicate = false, may_fill_duplicate = false;
    for (int kind : kOrphans) {
        const int c = q.counts[kind];
        const bool allowed = (q.joker_kinds >> kind) & 1;
        has_duplicate = has_duplicate || c >= 2;
        may_fill_duplicate = may_fill_duplicate || allowed;
        if (c == 0) (allowed ? allowed_missing : other_missing) += 1;
    }
    if (!has_duplicate) (may_fill_duplicate ? allowed_missing : other_missing) += 1;
    return slot_cost(allowed_missing, other_missing, q.jokers);
}

int terminals_honors_cost(const HandQuery& q) {
    int matched = 0, room_for_jokers = 0;
    for (int kind : kOrphans) {
        matched += q.counts[kind];
        if ((q.joker_kinds >> kind) & 1) room_for_jokers += kMaxCopies - q.counts[kind];
    }
    const int missing = kFullHand - matched;
    const int allowed = std::min(missing, room_for_jokers);
    return slot_cost(allowed, missing - allowed, q.jokers);
}

// Knitted (不搭): per suit a set of numbers pairwise >= 3 apart (at most 3), honors distinct, 14 in all.

int knitted_cost(const HandQuery& q) {
    const KnittedSets& sets = KnittedSets::get();
    // best[suit][size][a] = fewest disallowed missing tiles with `a` allowed missing (a <= 3).
    int best[3][4][4];
    for (int suit = 0; suit < 3; ++suit) {
        unsigned held = 0, allowed = 0;
        for (int n = 0; n < 9; ++n) {
            held |= unsigned(q.counts[9 * suit + n] > 0) << n;
            allowed |= unsigned((q.joker_kinds >> (9 * suit + n)) & 1) << n;
        }
        for (int size = 0; size < 4; ++size) {
            for (int a = 0; a < 4; ++a) best[suit][size][a] = kBig;
            for (unsigned set : sets.by_size[size]) {
                const unsigned missing = set & ~held;
                const int a = __builtin_popcount(missing & allowed);
                const int d = __builtin_popcount(missing & ~allowed);
                best[suit][size][a] = std::min(best[suit][size][a], d);
            }
        }
    }
    int honors_held = 0, honors_allowed_absent = 0;
    for (int k = kFirstHonor; k < kNumKinds; ++k) {
        if (q.counts[k] > 0) ++honors_held;
        else if ((q.joker_kinds >> k) & 1) ++honors_allowed_absent;
    }
    int cost = kBig;
    for (int s0 = 0; s0 < 4; ++s0)
        for (int s1 = 0; s1 < 4; ++s1)
            for (int s2 = 0; s2 < 4; ++s2) {
                const int honors = kFullHand - s0 - s1 - s2;
                if (honors < 0 || honors > kNumHonors) continue;
                const int honors_missing = std::max(0, honors - honors_held);
                const int honors_a = std::min(honors_missing, honors_allowed_absent);
                for (int a0 = 0; a0 < 4; ++a0)
                    for (int a1 = 0; a1 < 4; ++a1)
                        for (int a2 = 0; a2 < 4; ++a2) {
                            const int d = best[0][s0][a0] + best[1][s1][a1] + best[2][s2][a2];
                            if (d >= kBig) continue;
                            cost = std::min(cost, slot_cost(a0 + a1 + a2 + honors_a,
                                                            d + honors_missing - honors_a, q.jokers));
                        }
            }
    return cost;
}

}  // namespace

int restricted_cost(const HandQuery& q) {
    int best = kBig;
    if (q.forms & kStandard) best = standard_cost_restricted(q);
    if (q.melds != 0) return best;
    if (q.forms & kSevenPairs) best = std::min(best, seven_pairs_cost(q, false));
    if (q.forms & kSevenPairsQuads) best = std::min(best, seven_pairs_cost(q, true));
    if (q.forms & kThirteenOrphans) best = std::min(best, thirteen_orphans_cost(q));
    if (q.forms & kKnitted) best = std::min(best, knitted_cost(q));
    if (q.forms & kTerminalsHonors) best = std::min(best, terminals_honors_cost(q));
    return best;
}

}  // namespace hupai
