#include "tables.hpp"

#include <algorithm>
#include <array>

namespace hupai {
namespace {

constexpr int kMaxMeldsInGroup = 4;
constexpr int kEntryValues = 10;  // (m = 0..4) x (p = 0..1)

int target_size(int bit) { return 3 * (bit % 5) + 2 * (bit / 5); }

std::array<int, 10> powers_of_five() {
    std::array<int, 10> pow5{};
    pow5[0] = 1;
    for (int i = 1; i < 10; ++i) pow5[i] = pow5[i - 1] * 5;
    return pow5;
}

int digit_sum(unsigned code, int digits) {
    int sum = 0;
    for (int i = 0; i < digits; ++i, code /= 5) sum += int(code % 5);
    return sum;
}

}  // namespace

Tables::Tables() {
    build_index();
    build_suit_entries();
    build_honor_entries();
}

std::size_t Tables::bytes() const {
    std::size_t total = prefix_base_.size() * sizeof(std::uint32_t) + prefix_budget_.size() +
                        suit_entries_.size() * sizeof(GroupEntry) + honor_entries_.size() * sizeof(GroupEntry);
    for (const auto& ranks : suffix_rank_) total += ranks.size() * sizeof(std::uint16_t);
    return total;
}

// Dense numbering of suit patterns with at most 14 tiles: patterns are ordered by (prefix code, suffix code);
// a prefix's block holds the suffixes that fit its remaining budget of tiles.
void Tables::build_index() {
    std::array<int, kSuffixCodes> suffix_sum{};
    for (int s = 0; s < kSuffixCodes; ++s) suffix_sum[s] = digit_sum(unsigned(s), 4);
    suffix_rank_.assign(kMaxConcealed + 1, std::vector<std::uint16_t>(kSuffixCodes, 0));
    std::array<std::uint32_t, kMaxConcealed + 1> suffixes_within{};
    for (int budget = 0; budget <= kMaxConcealed; ++budget) {
        std::uint16_t rank = 0;
        for (int s = 0; s < kSuffixCodes; ++s) {
            suffix_rank_[budget][s] = rank;
            if (suffix_sum[s] <= budget) ++rank;
        }
        suffixes_within[budget] = rank;
    }
    prefix_base_.assign(kPrefixCodes, 0);
    prefix_budget_.assign(kPrefixCodes, 0);
    std::uint32_t running = 0;
    for (int p = 0; p < kPrefixCodes; ++p) {
        const int sum = digit_sum(unsigned(p), 5);
        if (sum > kMaxConcealed) continue;
        prefix_base_[p] = running;
        prefix_budget_[p] = std::uint8_t(kMaxConcealed - sum);
        running += suffixes_within[kMaxConcealed - sum];
    }
    suit_entries_.assign(running, 0);
}

// For each pattern h and each (m, p): missing(h) = |target| - max |s| over sub-multisets s <= h that fit inside
// some target of m melds + p pairs. That maximum obeys g(h) = |h| if h itself fits, else max_k g(h - e_k), so one
// pass over the patterns in order of size gives every entry exactly.
void Tables::build_suit_entries() {
    const auto pow5 = powers_of_five();
    const std::size_t count = suit_entries_.size();
    std::vector<std::uint32_t> codes(count);
    std::vector<std::vector<std::uint32_t>> by_size(kMaxConcealed + 1);
    for (int p = 0; p < kPrefixCodes; ++p) {
        if (digit_sum(unsigned(p), 5) > kMaxConcealed) continue;
        for (int s = 0; s < kSuffixCodes; ++s) {
            const int sum = digit_sum(unsigned(p), 5) + digit_sum(unsigned(s), 4);
            if (sum > kMaxConcealed) continue;
            const std::uint32_t index = prefix_base_[p] + suffix_rank_[prefix_budget_[p]][s];
            codes[index] = std::uint32_t(p + kPrefixCodes * s);
            by_size[sum].push_back(index);
        }
    }
    auto dense = [&](std::uint32_t code) {
        const unsigned p = code % kPrefixCodes, s = code / kPrefixCodes;
        return prefix_base_[p] + suffix_rank_[prefix_budget_[p]][s];
    };

    // 1. Mark every exact target: a multiset of up to 4 melds (9 pungs, 7 chows) plus an optional pair.
    std::vector<std::uint16_t> fits(count, 0);  // bit (m + 5p): pattern fits inside such a target
    std::array<int, 9> target{};
    auto mark = [&](int melds) {
        for (int pair = -1; pair < 9; ++pair) {
            if (pair >= 0) target[pair] += 2;
            bool ok = true;
            std::uint32_t code = 0;
            for (int k = 0; k < 9; ++k) {
                ok = ok && target[k] <= kMaxCopies;
                code += std::uint32_t(std::min(target[k], 4) * pow5[k]);
            }
            if (ok) fits[dense(code)] |= std::uint16_t(1u << (melds + (pair >= 0 ? 5 : 0)));
            if (pair >= 0) target[pair] -= 2;
        }
    };
    auto add_melds = [&](auto&& self, int melds, int first_type) -> void {
        mark(melds);
        if (melds == kMaxMeldsInGroup) return;
        for (int type = first_type; type < 16; ++type) {  // 0..8 pung of kind, 9..15 chow from kind type-9
            if (type < 9) target[type] += 3;
            else for (int k = type - 9; k < type - 6; ++k) target[k] += 1;
            self(self, melds + 1, type);
            if (type < 9) target[type] -= 3;
            else for (int k = type - 9; k < type - 6; ++k) target[k] -= 1;
        }
    };
    add_melds(add_melds, 0, 0);

    // 2. Close downward: a pattern fits if some pattern one tile larger fits.
    for (int size = kMaxConcealed - 1; size >= 0; --size) {
        for (std::uint32_t index : by_size[size]) {
            std::uint32_t code = codes[index];
            for (int k = 0; k < 9; ++k) {
                if ((code / pow5[k]) % 5 < 4) fits[index] |= fits[dense(code + pow5[k])];
            }
        }
    }

    // 3. Largest fitting sub-pattern, by increasing size; then missing = target size - that.
    std::vector<std::array<std::uint8_t, kEntryValues>> best(count);
    for (int size = 0; size <= kMaxConcealed; ++size) {
        for (std::uint32_t index : by_size[size]) {
            const std::uint32_t code = codes[index];
            std::array<std::uint8_t, kEntryValues> value{};
            for (int k = 0; k < 9; ++k) {
                if ((code / pow5[k]) % 5 == 0) continue;
                const auto& smaller = best[dense(code - pow5[k])];
                for (int bit = 0; bit < kEntryValues; ++bit) value[bit] = std::max(value[bit], smaller[bit]);
            }
            int missing[2][5];
            for (int bit = 0; bit < kEntryValues; ++bit) {
                if (fits[index] & (1u << bit)) value[bit] = std::uint8_t(size);
                missing[bit / 5][bit % 5] = target_size(bit) - value[bit];
            }
            best[index] = value;
            suit_entries_[index] = make_entry(missing);
        }
    }
}

// Honors form only pungs and pairs, each kind at most one group (a pung and a pair of one kind would be five
// tiles). The answer depends only on how many honors are held 1, 2, 3 or 4 times, so the table is indexed by
// that histogram (n1 + 8 n2 + 64 n3 + 512 n4) and filled by trying every assignment of the seven kinds.
void Tables::build_honor_entries() {
    honor_entries_.assign(4096, 0);
    for (int n4 = 0; n4 <= 7; ++n4)
        for (int n3 = 0; n3 + n4 <= 7; ++n3)
            for (int n2 = 0; n2 + n3 + n4 <= 7; ++n2)
                for (int n1 = 0; n1 + n2 + n3 + n4 <= 7; ++n1) {
                    std::array<int, kNumHonors> counts{};
                    const int held_times[5] = {0, n1, n2, n3, n4};
                    int i = 0;
                    for (int c = 4; c >= 1; --c)
                        for (int j = 0; j < held_times[c]; ++j) counts[i++] = c;
                    std::array<int, kEntryValues> best;
                    best.fill(99);
                    int assignments = 1;
                    for (int k = 0; k < kNumHonors; ++k) assignments *= 3;
                    for (int a = 0; a < assignments; ++a) {  // per kind: 0 unused, 1 pung, 2 pair
                        int melds = 0, pairs = 0, missing = 0;
                        for (int k = 0, code = a; k < kNumHonors; ++k, code /= 3) {
                            if (code % 3 == 1) ++melds, missing += std::max(0, 3 - counts[k]);
                            if (code % 3 == 2) ++pairs, missing += std::max(0, 2 - counts[k]);
                        }
                        if (melds <= 4 && pairs <= 1) {
                            int& slot = best[melds + 5 * pairs];
                            slot = std::min(slot, missing);
                        }
                    }
                    int missing[2][5];
                    for (int bit = 0; bit < kEntryValues; ++bit) missing[bit / 5][bit % 5] = best[bit];
                    honor_entries_[n1 + 8 * n2 + 64 * n3 + 512 * n4] = make_entry(missing);
                }
}

}  // namespace hupai
