// Agent features of one seat (hupai.env.Features): the seat's view of a table, from plain arrays, written into
// preallocated buffers. The inputs carry only what the seat may see (its own hand; every seat's face-up melds,
// discards and counts; face-down melds of other seats are counted, never opened), so the features cannot
// depend on another seat's hidden tiles. Every per-seat row is in the seat's order: row 0 is the seat itself,
// row 1 the next seat in turn, and so on.
#pragma once

#include <cstdint>
#include <string>

namespace hupai {

// Fixed sizes of one rule system's layout (hupai/env/features.py builds the same).
struct FeatureDims {
    int seats = 4;
    int kinds = 34;
    int max_discards = 34;  // discards kept per seat (the last ones)
    int actions = 0;        // the action space's size (the mask's width)
    int table_size = 0;     // the float "table" block: 1 + 4 + 4 seats + 3 seats + phases
    int max_melds = 8;      // meld records per seat in the input
    int discard_stride = 0; // discard entries per seat in the input (a pile longer than this is refused)
    unsigned shanten_forms = 0;  // win forms for discard_shanten; 0: not counted here (left at kNoDiscard)
    unsigned gold_forms = 0;     // win forms for a discard_shanten with the golds as jokers (Yunxiao's advice),
                                 // counted for a table whose gold is given (SeatView::gold); 0: none

    // Sizes of one table's buffers: int8 features (hand, drawn, tile, melds, hidden melds, discards, discard
    // counts, hand sizes, action mask, discard shanten) and float32 features (the table block first).
    int int_size() const;
    static constexpr int kSmallsFixed = 10;  // seat, drawn, tile, wall left, round wind, dealer, source, phase,
                                             // seats to act (bit per seat), legal actions; then per seat:
                                             // melds, discards, hand size, wind
    int smalls() const { return kSmallsFixed + 4 * seats; }
    static constexpr int kMeldWidth = 5;  // flags (bit 0: laid face down), then up to 4 tiles (-1: none)
};

constexpr std::int8_t kNoDiscard = 99;

// One table's inputs: pointers to its row of each input array (sizes as FeatureDims says).
struct SeatView {
    const std::int32_t* smalls = nullptr;     // FeatureDims::smalls()
    const std::uint8_t* hand = nullptr;       // kinds: the seat's concealed counts
    const std::int8_t* melds = nullptr;       // seats x max_melds x kMeldWidth, in absolute seat order
    const std::int8_t* discards = nullptr;    // every seat's discards in order, the seats one after another (as
                                              // many as smalls says, each at most discard_stride)
    const std::uint8_t* legal = nullptr;      // the legal actions' indices, native uint16 (as many as smalls says)
    int gold = -1;                            // the table's gold (FeatureDims::gold_forms), -1: none given
};

// One table's state as the table keeps it (hupai.env.Encoder.encode_game): what the seat may see, read from the
// table's own buffers. Only the seat's own hand is given; every seat's melds and discards are public.
struct TableState {
    static constexpr int kSize = 11;  // state: the smalls' fixed part (FeatureDims::kSmallsFixed), then the
                                      // hand sizes' mode: -1 every seat at rest, a seat: that seat holds one
                                      // more, -2: the sizes given in `fixed`
    static constexpr std::int32_t kShowKongs = 1;     // fixed flags: another seat's concealed kong shows its kind
    static constexpr std::int32_t kZipaiRecords = 2;  // the records are Wai Huzi's groups (7 bytes), not melds (6)
    static constexpr int kGoldShift = 8;  // fixed flags >> kGoldShift: the hand's gold + 1 (0: none), a public fact
    const std::int32_t* state = nullptr;   // kSize values
    const std::int32_t* fixed = nullptr;   // 2 + 2 * seats: the hand size with no melds, flags, each seat's wind,
                                           // each seat's hand size (read only in mode -2)
    const std::uint8_t* hand = nullptr;    // kinds: the seat's concealed counts
    const std::uint8_t* made = nullptr;    // seats: each pile's bytes in use
    const std::uint8_t* piles[8] = {};     // each seat's pile buffer (at least made[seat] bytes; mahjong marks a
                                           // claimed discard with bit 7, left out)
    long pile_sizes[8] = {};
    const std::uint8_t* records[8] = {};   // each seat's meld records (hupai.hand.Meld.record) or group records
    long record_sizes[8] = {};             // (hupai.game.state.zipai.group_record), in bytes
};

// The encoder's inputs (SeatView's) of one table's state: `smalls` (FeatureDims::smalls() values), `hand` (kinds),
// `melds` (seats x max_melds x kMeldWidth) and `discards` (at most seats x discard_stride; `discard_count` says
// how many), and `gold` (the fixed flags', -1 for none). Returns "" or what is wrong. A face-down meld of another
// seat is written without its tiles.
std::string table_inputs(const FeatureDims& dims, const TableState& table, std::int32_t* smalls,
                         std::uint8_t* hand, std::int8_t* melds, std::int8_t* discards, long& discard_count,
                         int& gold);

// Writes one table's features (every byte of both buffers: the float buffer's table block is written and the
// rest of it zeroed, for the caller's rule facts and scores). Returns "" or what is wrong with the input (a
// value out of range), having written nothing the caller may trust.
std::string encode_seat(const FeatureDims& dims, const SeatView& view, std::int8_t* ints, float* floats,
                        int float_size);

}  // namespace hupai
