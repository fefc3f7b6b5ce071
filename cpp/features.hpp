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
};

// Writes one table's features (every byte of both buffers: the float buffer's table block is written and the
// rest of it zeroed, for the caller's rule facts and scores). Returns "" or what is wrong with the input (a
// value out of range), having written nothing the caller may trust.
std::string encode_seat(const FeatureDims& dims, const SeatView& view, std::int8_t* ints, float* floats,
                        int float_size);

}  // namespace hupai
