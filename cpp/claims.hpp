// What each seat could claim on a discard, by the shape of its hand alone (the default claim rules of
// hupai.rules.base.Rules.claim_options): win, exposed kong, pung, and the chows. Rule-specific conditions
// (漏胡, 游金 states, the wall end) stay in Python; this answers the part asked after every discard.
#pragma once

#include <cstdint>

namespace hupai {

// Per seat, eight bits at 8 * seat.
enum ClaimBit : unsigned {
    kClaimWin = 1,
    kClaimPung = 2,
    kClaimKong = 4,
    kClaimChowLow = 8,    // the run tile-2, tile-1, tile
    kClaimChowMid = 16,   // tile-1, tile, tile+1
    kClaimChowHigh = 32,  // tile, tile+1, tile+2
};

// Which checks to make.
enum ClaimFlag : unsigned {
    kMeldsClaimable = 1,  // pungs, kongs and chows are allowed at all
    kKongAllowed = 2,     // a kong may be made now (a replacement tile remains)
    kCheckWins = 4,       // report wins (the rules use the core's own completeness test)
};

struct ClaimQuery {
    const std::uint8_t* hands[4] = {};  // 34 counts per seat
    int melds[4] = {};                  // exposed melds per seat
    int num_players = 4;
    int tile = 0;           // the discarded kind
    int discarder = 0;
    unsigned forms = 1;     // winning forms (hupai.Forms)
    unsigned chow_seats = 0;  // bit s: seat s may chow this discard
    unsigned flags = 0;
    // Per seat: is its waiting hand ready (听牌)? 1 yes, 0 no, -1 unknown. A seat known not ready cannot win on
    // the tile; an unknown one is worked out (and written back) before its win check.
    signed char ready[4] = {-1, -1, -1, -1};
};

// Is ``hand`` (34 counts, 3 * (4 - melds) + 2 tiles) complete in one of ``forms``? False for any other size.
bool hand_wins(const std::uint8_t* hand, int melds, unsigned forms);

// Is the waiting hand ``hand`` (3 * (4 - melds) + 1 tiles) ready: shanten 0 in one of ``forms``?
bool hand_ready(const std::uint8_t* hand, int melds, unsigned forms);

// The claim bits of every seat but the discarder (and ``ready`` filled in where it was asked). The query must
// be valid: kinds and seats in range,
// counts at most 4. A win needs a waiting-size hand (3 * (4 - melds) + 1 tiles) completed by the tile.
std::uint32_t claim_shapes(ClaimQuery& query);

}  // namespace hupai
