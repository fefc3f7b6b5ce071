// Per-suit and honor tables for the standard form, built once on first use.
//
// For every pattern of one suit (9 counts of 0..4, at most 14 tiles) the table holds, for m = 0..4 melds and
// p = 0..1 pairs, the fewest tiles missing to hold m melds + p pairs inside that suit (no kind used more than
// four times in the target). A hand's standard-form deficiency is then a min-plus combination of four entries.
#pragma once

#include <cstdint>
#include <vector>

#include "tiles.hpp"

namespace hupai {

// One entry: sixteen 4-bit values, nibble (m + 8 * p) = missing tiles for m melds (0..4) and p pairs (0..1);
// nibbles 5..7 and 13..15 hold 15, larger than any real value, so the entry widens straight into a byte
// vector with padding that never wins a minimum.
using GroupEntry = std::uint64_t;
constexpr int kEntryPad = 15;

inline int entry_value(GroupEntry entry, int melds, int pairs) {
    return int((entry >> (4 * (melds + 8 * pairs))) & 15u);
}

inline GroupEntry make_entry(const int (&values)[2][5]) {
    GroupEntry entry = 0;
    for (int pairs = 0; pairs < 2; ++pairs)
        for (int slot = 0; slot < 8; ++slot) {
            const int value = slot < 5 ? values[pairs][slot] : kEntryPad;
            entry |= GroupEntry(value) << (4 * (slot + 8 * pairs));
        }
    return entry;
}

class Tables {
  public:
    // Built once (C++11 makes the construction thread-safe), read-only afterwards. Inline: the batch kernels ask
    // for it once per row, and a call there cost them 3% more instructions.
    static const Tables& get() {
        static const Tables tables;
        return tables;
    }

    GroupEntry suit(const std::uint8_t* counts9) const { return suit_by_code(suit_prefix(counts9), suit_suffix(counts9)); }
    GroupEntry honors(const std::uint8_t* counts7) const { return honors_by_index(honor_index(counts7)); }

    // The look-ups in two steps, for a caller that changes a pattern by a tile at a time: a suit pattern's codes
    // (base 5: kinds 1..5, kinds 6..9; one more tile of the suit's kind i adds 5^i, or 5^(i-5) to the suffix)
    // and the honors' histogram index n1 + 8 n2 + 64 n3 + 512 n4 (a kind held c > 0 times adds 8^(c-1) =
    // (1 << 3c) >> 3). The codes must be those of a pattern of at most 14 tiles.
    static unsigned suit_prefix(const std::uint8_t* counts9) {
        return counts9[0] + 5u * (counts9[1] + 5u * (counts9[2] + 5u * (counts9[3] + 5u * counts9[4])));
    }
    static unsigned suit_suffix(const std::uint8_t* counts9) {
        return counts9[5] + 5u * (counts9[6] + 5u * (counts9[7] + 5u * counts9[8]));
    }
    static unsigned honor_index(const std::uint8_t* counts7) {
        unsigned index = 0;
        for (int i = 0; i < kNumHonors; ++i) index += (1u << (3 * counts7[i])) >> 3;
        return index;
    }
    GroupEntry suit_by_code(unsigned prefix, unsigned suffix) const {
        return suit_entries_[prefix_base_[prefix] + suffix_rank_[prefix_budget_[prefix]][suffix]];
    }
    GroupEntry honors_by_index(unsigned index) const { return honor_entries_[index]; }
    std::size_t bytes() const;
    std::size_t suit_patterns() const { return suit_entries_.size(); }

  private:
    Tables();
    void build_index();
    void build_suit_entries();
    void build_honor_entries();

    static constexpr int kPrefixCodes = 3125;  // 5^5: kinds 1..5 of a suit
    static constexpr int kSuffixCodes = 625;   // 5^4: kinds 6..9
    std::vector<std::uint32_t> prefix_base_;   // dense offset of each prefix's block
    std::vector<std::uint8_t> prefix_budget_;  // 14 - tiles in the prefix (suffixes may use that many)
    std::vector<std::vector<std::uint16_t>> suffix_rank_;  // [budget][suffix] -> rank among suffixes within budget
    std::vector<GroupEntry> suit_entries_;
    std::vector<GroupEntry> honor_entries_;  // indexed by the histogram of honor counts
};

}  // namespace hupai
