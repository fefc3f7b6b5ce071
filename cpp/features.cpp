// Agent features of one seat from plain arrays (features.hpp).
#include "features.hpp"

#include <algorithm>
#include <array>
#include <cstring>

#include "analysis.hpp"
#include "wild_yunxiao.hpp"

namespace hupai {

int FeatureDims::int_size() const {
    return 3 * kinds + seats * kinds + seats + seats * max_discards + seats * kinds + seats + actions + kinds;
}

namespace {

std::string out_of_range(const char* what, long long value) {
    return std::string(what) + " " + std::to_string(value) + " is out of range";
}

}  // namespace

namespace {

// discard_analysis's shanten_after alone (127 for kinds not held) of a valid complete-size query without jokers,
// the improving draws not counted: a discard changes one group (kind / 9) of the full hand, so the standard
// form's cost of every discard comes from the full hand's other groups combined once (StandardPartials), one
// table look-up a discard; the other forms' cost is hand_cost without the standard form. (Kept here, apart from
// analysis.cpp, whose compiled code the engine's own analysis runs.)
void discard_shanten(const HandQuery& query, std::int8_t* shanten_after) {
    std::array<std::uint8_t, kNumKinds> counts;
    std::copy(query.counts, query.counts + kNumKinds, counts.begin());
    HandQuery hand = query;
    hand.counts = counts.data();
    if (query.jokers != 0 || !(query.forms & kStandard)) {
        std::array<std::uint64_t, kNumKinds> improving{};
        discard_analysis(query, shanten_after, improving.data());
        return;
    }
    HandQuery others = hand;
    others.forms = query.forms & ~unsigned(kStandard);
    const StandardPartials full(query.counts, kMaxMelds - query.melds);
    for (int out = 0; out < kNumKinds; ++out) {
        shanten_after[out] = 127;
        if (counts[size_t(out)] == 0) continue;
        --counts[size_t(out)];
        int cost = full.deficiency(counts.data(), out / 9);
        if (others.forms != 0) cost = std::min(cost, hand_cost(others));
        shanten_after[out] = std::int8_t(cost - 1);
        ++counts[size_t(out)];
    }
}

}  // namespace

std::string table_inputs(const FeatureDims& dims, const TableState& table, std::int32_t* smalls,
                         std::uint8_t* hand, std::int8_t* melds, std::int8_t* discards, long& discard_count,
                         int& gold) {
    const int n = dims.seats, kinds = dims.kinds;
    if (n < 1 || n > 8) return out_of_range("seats", n);
    const std::int32_t* state = table.state;
    const std::int32_t* fixed = table.fixed;
    const int seat = state[0], mode = state[FeatureDims::kSmallsFixed];
    if (seat < 0 || seat >= n) return out_of_range("seat", seat);
    if (mode < -2 || mode >= n) return out_of_range("hand size mode", mode);
    const int base = fixed[0];
    const std::int32_t flags = fixed[1];
    if (base < 0 || base > 127) return out_of_range("hand size", base);
    gold = (flags >> TableState::kGoldShift) - 1;
    if (gold < -1 || gold >= kinds) return out_of_range("gold", gold);
    const bool zipai = (flags & TableState::kZipaiRecords) != 0;
    const bool show_kongs = (flags & TableState::kShowKongs) != 0;
    const int width = zipai ? 7 : 6;
    std::copy(state, state + FeatureDims::kSmallsFixed, smalls);
    std::int32_t* meld_counts = smalls + FeatureDims::kSmallsFixed;
    std::int32_t* pile_lengths = meld_counts + n;
    std::int32_t* hand_sizes = pile_lengths + n;
    std::int32_t* winds = hand_sizes + n;
    std::memcpy(hand, table.hand, size_t(kinds));
    std::int8_t* const blank = melds;
    for (int i = 0; i < n * dims.max_melds; ++i) {
        blank[i * FeatureDims::kMeldWidth] = 0;
        std::memset(blank + i * FeatureDims::kMeldWidth + 1, -1, FeatureDims::kMeldWidth - 1);
    }
    discard_count = 0;
    for (int other = 0; other < n; ++other) {
        const long bytes = table.record_sizes[other];
        if (bytes < 0 || bytes % width != 0 || bytes / width > dims.max_melds)
            return "seat " + std::to_string(other) + "'s records are " + std::to_string(bytes) + " bytes (records of " +
                   std::to_string(width) + ", at most " + std::to_string(dims.max_melds) + ")";
        const int count = int(bytes / width);
        meld_counts[other] = count;
        for (int m = 0; m < count; ++m) {
            const std::uint8_t* record = table.records[other] + m * width;
            std::int8_t* out = melds + (other * dims.max_melds + m) * FeatureDims::kMeldWidth;
            if (zipai) {
                // 歪 (0) and 溜 (2) lie one card up (WH-9): only it is shown; the others show every card.
                const int type = record[0];
                if (type > 4) return out_of_range("group type", type);
                const int shown = type == 0 || type == 2 ? 1 : 4;
                for (int t = 0; t < shown; ++t) {
                    const int card = record[1 + t];
                    if (card == 255) break;
                    if (card >= kinds) return out_of_range("group card", card);
                    out[1 + t] = std::int8_t(card);
                }
                continue;
            }
            const int code = record[0], first = record[1], concealed = record[2];
            if (first >= kinds || concealed > 1) return out_of_range("meld record", first);
            if (concealed == 1 && !show_kongs && other != seat) {  // face down: its kind is not this seat's to see
                out[0] = 1;
                continue;
            }
            if (code == 12) {  // chow
                if (first + 2 >= kinds) return out_of_range("chow", first);
                for (int t = 0; t < 3; ++t) out[1 + t] = std::int8_t(first + t);
            } else if (code == 25 || code == 20) {  // pung, kong
                for (int t = 0; t < (code == 20 ? 4 : 3); ++t) out[1 + t] = std::int8_t(first);
            } else {
                return out_of_range("meld type", code);
            }
        }
        const int used = table.made[other];
        if (used > table.pile_sizes[other]) return out_of_range("pile count", used);
        const std::uint8_t* pile = table.piles[other];
        int length = 0;
        for (int d = 0; d < used; ++d) {
            const std::uint8_t kind = pile[d];
            if (!zipai && (kind & 0x80) != 0) continue;  // claimed: no longer in the pile
            if (length >= dims.discard_stride) return out_of_range("discard count", length + 1);
            discards[discard_count++] = std::int8_t(kind < 0x80 ? kind : 127);  // (out of range: refused later)
            ++length;
        }
        pile_lengths[other] = length;
        hand_sizes[other] = mode == -2 ? fixed[2 + n + other] : base - 3 * count + (other == mode ? 1 : 0);
        winds[other] = fixed[2 + other];
    }
    return "";
}

std::string encode_seat(const FeatureDims& dims, const SeatView& view, std::int8_t* ints, float* floats,
                        int float_size) {
    const int n = dims.seats, kinds = dims.kinds;
    std::memset(ints, 0, size_t(dims.int_size()));
    std::fill(floats, floats + float_size, 0.0f);
    const std::int32_t* small = view.smalls;
    const int seat = small[0], drawn = small[1], tile = small[2], wall_left = small[3], round_wind = small[4];
    const int dealer = small[5], source = small[6], phase = small[7];
    const std::uint32_t to_act = std::uint32_t(small[8]);
    const int legal_count = small[9];
    const std::int32_t* meld_counts = small + FeatureDims::kSmallsFixed;
    const std::int32_t* pile_lengths = meld_counts + n;
    const std::int32_t* hand_sizes = pile_lengths + n;
    const std::int32_t* winds = hand_sizes + n;
    if (seat < 0 || seat >= n) return out_of_range("seat", seat);
    if (drawn < -1 || drawn >= kinds) return out_of_range("drawn tile", drawn);
    if (tile < -1 || tile >= kinds) return out_of_range("tile", tile);
    if (round_wind < 0 || round_wind > 3) return out_of_range("round wind", round_wind);
    if (dealer < 0 || dealer >= n) return out_of_range("dealer", dealer);
    if (source < -1 || source >= n) return out_of_range("source seat", source);
    if (phase < 0 || 5 + 7 * n + phase >= dims.table_size) return out_of_range("phase", phase);
    if (wall_left < 0 || wall_left > 1000) return out_of_range("live wall", wall_left);
    if (legal_count < 0 || legal_count > dims.actions) return out_of_range("legal action count", legal_count);
    // Where each seat's discards start (the piles follow one another in seat order).
    std::array<int, 9> pile_starts{};
    if (n > 8) return out_of_range("seats", n);
    for (int other = 0; other < n; ++other) {
        const int length = pile_lengths[other];
        if (length < 0 || length > dims.discard_stride) return out_of_range("discard count", length);
        pile_starts[size_t(other) + 1] = pile_starts[size_t(other)] + length;
    }

    std::int8_t* hand = ints;
    std::int8_t* drawn_row = hand + kinds;
    std::int8_t* tile_row = drawn_row + kinds;
    std::int8_t* melds = tile_row + kinds;
    std::int8_t* hidden = melds + n * kinds;
    std::int8_t* discards = hidden + n;
    std::int8_t* discard_counts = discards + n * dims.max_discards;
    std::int8_t* sizes = discard_counts + n * kinds;
    std::int8_t* mask = sizes + n;
    std::int8_t* shanten = mask + dims.actions;

    if (kinds > kNumKinds) return out_of_range("kinds", kinds);
    // Copied once, then checked and used: the caller's array may be written by another thread meanwhile.
    std::array<std::uint8_t, kNumKinds> own{};
    std::memcpy(own.data(), view.hand, size_t(kinds));
    int total = 0;
    for (int k = 0; k < kinds; ++k) {
        const int count = own[size_t(k)];
        if (count > 4) return out_of_range("hand count", count);
        hand[k] = std::int8_t(count);
        total += count;
    }
    if (drawn >= 0) drawn_row[drawn] = 1;
    if (tile >= 0) tile_row[tile] = 1;
    std::memset(discards, -1, size_t(n * dims.max_discards));
    for (int row = 0; row < n; ++row) {
        const int other = (seat + row) % n;
        const int meld_count = meld_counts[other];
        if (meld_count < 0 || meld_count > dims.max_melds) return out_of_range("meld count", meld_count);
        for (int m = 0; m < meld_count; ++m) {
            const std::int8_t* record = view.melds + (other * dims.max_melds + m) * FeatureDims::kMeldWidth;
            if (record[0] & 1 && other != seat) {  // face down: another seat sees that it is there, not its kind
                ++hidden[row];
                continue;
            }
            for (int t = 1; t < FeatureDims::kMeldWidth; ++t) {
                const int kind = record[t];
                if (kind < -1 || kind >= kinds) return out_of_range("meld tile", kind);
                if (kind >= 0) ++melds[row * kinds + kind];
            }
        }
        const int length = pile_lengths[other];
        const std::int8_t* pile = view.discards + pile_starts[size_t(other)];
        const int first_kept = std::max(0, length - dims.max_discards);
        for (int d = 0; d < length; ++d) {
            const int kind = pile[d];
            if (kind < 0 || kind >= kinds) return out_of_range("discard", kind);
            ++discard_counts[row * kinds + kind];
            if (d >= first_kept) discards[row * dims.max_discards + d - first_kept] = std::int8_t(kind);
        }
        const int size = hand_sizes[other];
        if (size < 0 || size > 127) return out_of_range("hand size", size);
        sizes[row] = std::int8_t(size);
        const int wind = winds[other];
        if (wind < 0 || wind > 3) return out_of_range("seat wind", wind);
        floats[5 + 4 * row + wind] = 1.0f;
        if (other == dealer) floats[5 + 4 * n + row] = 1.0f;
        if (to_act >> other & 1u) floats[5 + 5 * n + row] = 1.0f;
        if (other == source) floats[5 + 6 * n + row] = 1.0f;
    }
    floats[0] = float(wall_left);
    floats[1 + round_wind] = 1.0f;
    floats[5 + 7 * n + phase] = 1.0f;
    for (int i = 0; i < legal_count; ++i) {
        std::uint16_t index;
        std::memcpy(&index, view.legal + 2 * i, sizeof index);  // (no alignment asked of the buffer)
        if (index >= dims.actions) return out_of_range("legal action index", index);
        if (mask[index]) return "legal action index " + std::to_string(index) + " is given twice";
        mask[index] = 1;
    }

    std::memset(shanten, kNoDiscard, size_t(kinds));
    if (dims.shanten_forms != 0 && kinds == kNumKinds && total % 3 == 2 && total <= 14) {
        // The shanten after each discard (as a batch of the hand less each kind held would count it).
        std::array<std::int8_t, kNumKinds> after{};
        const HandQuery query{own.data(), 0, (14 - total) / 3, dims.shanten_forms, kAllKinds};
        if (check_query(query, SizeRule::kComplete) != 0) return "the hand is no complete-size hand";
        discard_shanten(query, after.data());
        for (int k = 0; k < kinds; ++k)
            if (own[size_t(k)] > 0) shanten[k] = after[size_t(k)];
    } else if (dims.gold_forms != 0 && view.gold >= 0 && kinds == kNumKinds && total % 3 == 2 && total <= 14) {
        // Yunxiao's count (its advice's discard_shanten: golds as jokers, 白板 as the gold's face), by physical kind;
        // 127 (a kind not held) is kNoDiscard here.
        std::int8_t after[kNumKinds];
        try {
            yunxiao::Hand gold_hand = yunxiao::make_hand(own, view.gold, nullptr, 0, 0);
            gold_hand.melds = (14 - total) / 3;  // only their number counts here, not their tiles
            yunxiao::discard_shanten(gold_hand, dims.gold_forms, after);
        } catch (const InvalidHand& invalid) {
            return invalid.what();
        }
        for (int k = 0; k < kinds; ++k) shanten[k] = after[k] == 127 ? kNoDiscard : after[k];
    }
    return "";
}

}  // namespace hupai
