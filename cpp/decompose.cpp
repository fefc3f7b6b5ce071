#include "decompose.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <tuple>

namespace hupai {

bool ReadGroup::operator<(const ReadGroup& other) const {
    return std::tie(type, tiles, jokers) < std::tie(other.type, other.tiles, other.jokers);
}
bool ReadGroup::operator==(const ReadGroup& other) const {
    return type == other.type && tiles == other.tiles && jokers == other.jokers;
}

namespace {

using Counts = std::array<int, kNumKinds>;
constexpr int kFullHandTiles = 14;

bool is_chow_start(int kind) { return kind < kFirstHonor && kind % 9 <= 6; }

// Shared search state: natural tiles still to place, stand-ins used per kind, the groups so far.
class Search {
  public:
    explicit Search(const HandQuery& q) : allowed_(q.joker_kinds), jokers_(q.jokers) {
        for (int k = 0; k < kNumKinds; ++k) natural_[k] = left_[k] = q.counts[k];
    }

    std::set<std::vector<ReadGroup>>& found() { return found_; }

    // Standard form: `melds` melds and `pairs` (0/1) pairs still to form.
    void standard(int melds, int pairs) {
        const int k = lowest_left();
        if (k < 0) return joker_melds(melds, pairs, 0);
        if (pairs) try_group(kPair, {k, k}, [&] { standard(melds, 0); });
        if (melds) {
            try_group(kPung, {k, k, k}, [&] { standard(melds - 1, pairs); });
            for (int start = k - 2; start <= k; ++start)
                if (start >= 0 && start / 9 == k / 9 && is_chow_start(start))
                    try_group(kChow, {start, start + 1, start + 2}, [&] { standard(melds - 1, pairs); });
        }
    }

    // Seven pairs; `per_kind` = how many pairs one kind may give (1, or 2 when a quad counts twice).
    void seven_pairs(int pairs, int per_kind) {
        const int k = lowest_left();
        if (k < 0) return joker_pairs(pairs, per_kind, 0);
        if (pairs && pairs_of_[k] < per_kind) {
            ++pairs_of_[k];
            try_group(kPair, {k, k}, [&] { seven_pairs(pairs - 1, per_kind); });
            --pairs_of_[k];
        }
    }

    void emit() {
        std::vector<ReadGroup> groups = groups_;
        std::sort(groups.begin(), groups.end());
        found_.insert(std::move(groups));
    }

    bool may_stand_for(int kind, int extra) const {
        return ((allowed_ >> kind) & 1) && natural_[kind] + stand_in_[kind] + extra <= kMaxCopies;
    }
    int jokers_left() const { return jokers_; }
    void use_joker_as(int kind) { --jokers_, ++stand_in_[kind]; }
    void return_joker(int kind) { ++jokers_, --stand_in_[kind]; }
    void push(ReadGroup group) { groups_.push_back(std::move(group)); }
    void pop() { groups_.pop_back(); }

  private:
    int lowest_left() const {
        for (int k = 0; k < kNumKinds; ++k)
            if (left_[k] > 0) return k;
        return -1;
    }

    // Place a group holding the lowest natural tile left; every other position is filled by a natural tile or
    // by a joker, and both choices are explored (they are different readings).
    template <typename Next>
    void try_group(GroupType type, std::vector<int> kinds, Next&& next) {
        ReadGroup group{type, {}, {}};
        fill_positions(group, kinds, 0, lowest_left(), false, next);
    }

    template <typename Next>
    void fill_positions(ReadGroup& group, const std::vector<int>& kinds, std::size_t pos, int lowest,
                        bool holds_lowest, Next& next) {
        if (pos == kinds.size()) {
            if (!holds_lowest) return;  // otherwise the same reading would be found from another tile
            ReadGroup done = group;
            std::sort(done.tiles.begin(), done.tiles.end());
            std::sort(done.jokers.begin(), done.jokers.end());
            groups_.push_back(std::move(done));
            next();
            groups_.pop_back();
            return;
        }
        const int kind = kinds[pos];
        if (left_[kind] > 0) {  // a natural tile
            --left_[kind];
            group.tiles.push_back(std::uint8_t(kind));
            fill_positions(group, kinds, pos + 1, lowest, holds_lowest || kind == lowest, next);
            group.tiles.pop_back();
            ++left_[kind];
        }
        if (jokers_ > 0 && may_stand_for(kind, 1)) {  // a joker standing for `kind`
            use_joker_as(kind);
            group.tiles.push_back(std::uint8_t(kind));
            group.jokers.push_back(std::uint8_t(kind));
            fill_positions(group, kinds, pos + 1, lowest, holds_lowest, next);
            group.jokers.pop_back();
            group.tiles.pop_back();
            return_joker(kind);
        }
    }

    // Groups made of jokers only, in non-decreasing order of (type, first kind) so each multiset comes once.
    void joker_melds(int melds, int pairs, int min_id) {
        if (melds == 0) return joker_pair(pairs);
        // ids 0..33: pung of kind id; 34..67: chow starting at kind id - 34
        for (int id = min_id; id < 2 * kNumKinds; ++id) {
            const bool pung = id < kNumKinds;
            const int first = pung ? id : id - kNumKinds;
            if (!pung && !is_chow_start(first)) continue;
            const int kinds[3] = {first, pung ? first : first + 1, pung ? first : first + 2};
            if (jokers_ < 3) return;
            int placed = 0;
            bool ok = true;
            for (int kind : kinds) {
                if (!may_stand_for(kind, 1)) { ok = false; break; }
                use_joker_as(kind), ++placed;
            }
            if (ok) {
                push({pung ? kPung : kChow, {std::uint8_t(kinds[0]), std::uint8_t(kinds[1]), std::uint8_t(kinds[2])},
                      {std::uint8_t(kinds[0]), std::uint8_t(kinds[1]), std::uint8_t(kinds[2])}});
                joker_melds(melds - 1, pairs, id);
                pop();
            }
            for (int i = placed - 1; i >= 0; --i) return_joker(kinds[i]);
        }
    }

    void joker_pair(int pairs) {
        if (pairs == 0) {
            if (jokers_ == 0) emit();
            return;
        }
        for (int kind = 0; kind < kNumKinds; ++kind) {
            if (jokers_ < 2 || !may_stand_for(kind, 2)) continue;
            use_joker_as(kind), use_joker_as(kind);
            push({kPair, {std::uint8_t(kind), std::uint8_t(kind)}, {std::uint8_t(kind), std::uint8_t(kind)}});
            emit();
            pop();
            return_joker(kind), return_joker(kind);
        }
    }

    void joker_pairs(int pairs, int per_kind, int min_kind) {
        if (pairs == 0) {
            if (jokers_ == 0) emit();
            return;
        }
        for (int kind = min_kind; kind < kNumKinds; ++kind) {
            if (jokers_ < 2 || pairs_of_[kind] >= per_kind || !may_stand_for(kind, 2)) continue;
            use_joker_as(kind), use_joker_as(kind), ++pairs_of_[kind];
            push({kPair, {std::uint8_t(kind), std::uint8_t(kind)}, {std::uint8_t(kind), std::uint8_t(kind)}});
            joker_pairs(pairs - 1, per_kind, kind);
            pop();
            return_joker(kind), return_joker(kind), --pairs_of_[kind];
        }
    }

    KindMask allowed_;
    int jokers_;
    Counts natural_{}, left_{}, stand_in_{}, pairs_of_{};
    std::vector<ReadGroup> groups_;
    std::set<std::vector<ReadGroup>> found_;
};

ReadGroup single(int kind, bool joker) {
    return {kSingle, {std::uint8_t(kind)}, joker ? std::vector<std::uint8_t>{std::uint8_t(kind)}
                                                 : std::vector<std::uint8_t>{}};
}

void thirteen_orphans(const HandQuery& q, std::set<std::vector<ReadGroup>>& found) {
    for (int duplicate : kOrphans) {
        std::vector<ReadGroup> groups;
        int jokers = q.jokers, naturals_used = 0;
        bool ok = true;
        for (int kind : kOrphans) {
            const int need = kind == duplicate ? 2 : 1;
            const int natural = q.counts[kind];
            if (natural > need) { ok = false; break; }
            const int filled = need - natural;
            if (filled > 0 && !((q.joker_kinds >> kind) & 1)) { ok = false; break; }
            jokers -= filled;
            naturals_used += natural;
            ReadGroup group{need == 2 ? kPair : kSingle, std::vector<std::uint8_t>(need, std::uint8_t(kind)),
                            std::vector<std::uint8_t>(filled, std::uint8_t(kind))};
            groups.push_back(group);
        }
        int naturals = 0;
        for (int k = 0; k < kNumKinds; ++k) naturals += q.counts[k];
        if (!ok || jokers != 0 || naturals_used != naturals) continue;
        std::sort(groups.begin(), groups.end());
        found.insert(groups);
    }
}

void knitted(const HandQuery& q, std::set<std::vector<ReadGroup>>& found) {
    for (int k = 0; k < kNumKinds; ++k)
        if (q.counts[k] > 1) return;  // 14 distinct tiles
    // Per suit, every knitted number set that holds the suit's natural tiles.
    std::vector<unsigned> options[3];
    for (int suit = 0; suit < 3; ++suit) {
        unsigned held = 0;
        for (int n = 0; n < 9; ++n) held |= unsigned(q.counts[9 * suit + n]) << n;
        for (unsigned set = 0; set < 512; ++set) {
            if ((set & held) != held || __builtin_popcount(set) > 3) continue;
            bool ok = true;
            for (int a = 0; a < 9 && ok; ++a)
                for (int b = a + 1; b < a + 3 && b < 9 && ok; ++b) ok = !((set >> a & 1) && (set >> b & 1));
            if (ok) options[suit].push_back(set);
        }
    }
    unsigned honors_held = 0;
    for (int h = 0; h < kNumHonors; ++h) honors_held |= unsigned(q.counts[kFirstHonor + h]) << h;
    for (unsigned a : options[0])
        for (unsigned b : options[1])
            for (unsigned c : options[2]) {
                const int suited = __builtin_popcount(a) + __builtin_popcount(b) + __builtin_popcount(c);
                const int honors = kFullHandTiles - suited;
                if (honors < __builtin_popcount(honors_held) || honors > kNumHonors) continue;
                for (unsigned hset = 0; hset < 128; ++hset) {
                    if ((hset & honors_held) != honors_held || __builtin_popcount(hset) != honors) continue;
                    std::vector<ReadGroup> groups;
                    int jokers = 0;
                    bool ok = true;
                    const unsigned sets[4] = {a, b, c, hset};
                    for (int group = 0; group < 4 && ok; ++group)
                        for (int n = 0; n < 9; ++n) {
                            if (!(sets[group] >> n & 1)) continue;
                            const int kind = 9 * group + n;
                            const bool joker = q.counts[kind] == 0;
                            if (joker && !((q.joker_kinds >> kind) & 1)) { ok = false; break; }
                            jokers += joker;
                            groups.push_back(single(kind, joker));
                        }
                    if (!ok || jokers != q.jokers) continue;
                    std::sort(groups.begin(), groups.end());
                    found.insert(groups);
                }
            }
}

void terminals_honors(const HandQuery& q, std::set<std::vector<ReadGroup>>& found) {
    std::vector<ReadGroup> groups;
    for (int k = 0; k < kNumKinds; ++k) {
        if (q.counts[k] == 0) continue;
        if (!((kOrphanMask >> k) & 1)) return;
        for (int i = 0; i < q.counts[k]; ++i) groups.push_back(single(k, false));
    }
    int jokers = q.jokers;
    for (int kind : kOrphans) {  // any assignment reads the same: take the first kinds with room
        for (int c = q.counts[kind]; jokers > 0 && c < kMaxCopies && ((q.joker_kinds >> kind) & 1); ++c, --jokers)
            groups.push_back(single(kind, true));
    }
    if (jokers != 0) return;
    std::sort(groups.begin(), groups.end());
    found.insert(groups);
}

}  // namespace

std::vector<Reading> decompose(const HandQuery& q) {
    require_valid(q, SizeRule::kComplete);
    if (q.jokers > kMaxDecomposeJokers)
        throw InvalidHand("decompositions accepts at most 4 jokers, got " + std::to_string(q.jokers));
    std::vector<Reading> readings;
    auto collect = [&](Form form, const std::set<std::vector<ReadGroup>>& found) {
        for (const auto& groups : found) readings.push_back({form, groups});
    };
    if (q.forms & kStandard) {
        Search search(q);
        search.standard(kMaxMelds - q.melds, 1);
        collect(kStandard, search.found());
    }
    if (q.melds != 0) return readings;
    if (q.forms & kSevenPairs) {
        Search search(q);
        search.seven_pairs(7, 1);
        collect(kSevenPairs, search.found());
    }
    if (q.forms & kSevenPairsQuads) {
        Search search(q);
        search.seven_pairs(7, 2);
        collect(kSevenPairsQuads, search.found());
    }
    std::set<std::vector<ReadGroup>> found;
    if (q.forms & kThirteenOrphans) thirteen_orphans(q, found), collect(kThirteenOrphans, found), found.clear();
    if (q.forms & kKnitted) knitted(q, found), collect(kKnitted, found), found.clear();
    if (q.forms & kTerminalsHonors) terminals_honors(q, found), collect(kTerminalsHonors, found);
    return readings;
}

}  // namespace hupai
