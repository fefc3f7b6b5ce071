// Yunxiao's hand questions in one call each (rules/yunxiao.md YX-6..8, YX-25, YX-32..35): the waits of a waiting
// hand, whether a hand is complete, the 游 shape and the discards into it.
//
// The same answers as the Python rule layer (hupai.rules.yunxiao.patterns: hand_waits, is_complete, you_shape_of,
// you_shape_discards_of), from the same pieces: the core's table-driven completeness with the golds as jokers,
// which decides most hands, then the exact wild search (wild.hpp) under the YX-8 room where declared melds or
// seven pairs need it. Plain data in and out, no allocation (the wild search reuses a per-thread buffer).
#pragma once

#include <cstdint>

#include "wild.hpp"

namespace hupai::yunxiao {

constexpr int kWhite = 31;  // 白板 (5z): plays as the gold's kind when the gold is not 白板 itself (YX-7)

// A player's tiles under a gold: `physical` concealed counts (golds as kind `gold`, 白板 as 5z), and how many of
// each kind the player's own declared melds hold (`meld_tiles`, a 白板 there counted as the gold's kind, YX-7),
// `melds` of them. Built by make_hand, which checks it.
struct Hand {
    KindCounts physical{};
    int gold = 0;
    KindCounts meld_tiles{};
    int melds = 0;
};

// The hand from its parts; `meld_kinds` are the tiles of the declared melds (physical or effective kinds,
// `meld_count` of them). Throws InvalidHand for a gold outside 0..33, melds outside 0..4, a meld tile outside
// 0..33, or 3..4 tiles per meld not given.
Hand make_hand(const KindCounts& physical, int gold, const std::uint8_t* meld_kinds, int meld_count, int melds);

int tiles(const Hand& hand);  // concealed tiles, golds included

// Bit k set: physical kind k completes the waiting hand (3 * (4 - melds) + 1 concealed tiles) in some YX-32..35
// form, a drawn gold (bit G) included; a kind held four times is no wait. Throws InvalidHand for another size.
std::uint64_t waits(const Hand& hand, bool loose);

// Is the hand (3 * (4 - melds) + 2 concealed tiles) complete in some YX-32..35 form? False for another size.
bool complete(const Hand& hand, bool loose);

// YX-25: a gold set aside, the rest form the melds still needed (or six pairs, nothing declared), golds wild
// within YX-8 room. False unless the hand has 13 - 3 * melds tiles and a gold.
bool you_shape(const Hand& hand);

// Bit k set: discarding one physical tile of kind k leaves the hand in 游 shape.
std::uint64_t you_shape_discards(const Hand& hand);

// The shanten of the hand: the natural tiles (白板 in G's place) with the golds as jokers of any kind, in `forms`
// (YX-8 room left out, as the advice counts it; the melds count, their tiles not). Throws InvalidHand for a hand
// the core's shanten refuses (a wrong size).
int shanten(const Hand& hand, unsigned forms);

// For each physical kind held, the shanten after discarding one tile of it (127 for a kind not held): the natural
// tiles (白板 in G's place) with the golds as jokers of any kind, in `forms` (YX-8 room left out, as the advice's
// shanten counts it; the hand's melds count, their tiles not). The core's discard_shanten, read by physical kind.
void discard_shanten(const Hand& hand, unsigned forms, std::int8_t* out);

}  // namespace hupai::yunxiao
