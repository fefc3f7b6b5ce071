#include "claims.hpp"

#include <cstring>

#include "analysis.hpp"
#include "tiles.hpp"

namespace hupai {

namespace {

bool wins_on(const std::uint8_t* hand, int melds, int tile, unsigned forms) {
    if (hand[tile] >= kMaxCopies) return false;
    std::uint8_t counts[kNumKinds];
    std::memcpy(counts, hand, kNumKinds);
    ++counts[tile];
    return hand_wins(counts, melds, forms);  // a hand between a claim and its discard has the wrong size
}

unsigned chow_bits(const std::uint8_t* hand, int tile) {
    if (tile >= kFirstHonor) return 0;
    const int rank = tile % kSuitKinds;  // 0..8
    auto held = [&](int offset) { return hand[tile + offset] != 0; };
    unsigned bits = 0;
    if (rank >= 2 && held(-2) && held(-1)) bits |= kClaimChowLow;
    if (rank >= 1 && rank <= 7 && held(-1) && held(1)) bits |= kClaimChowMid;
    if (rank <= 6 && held(1) && held(2)) bits |= kClaimChowHigh;
    return bits;
}

}  // namespace

bool hand_wins(const std::uint8_t* hand, int melds, unsigned forms) {
    HandQuery query;
    query.counts = hand;
    query.melds = melds;
    query.forms = forms;
    return check_query(query, SizeRule::kComplete) == 0 && hand_complete(query);
}

bool hand_ready(const std::uint8_t* hand, int melds, unsigned forms) {
    HandQuery query;
    query.counts = hand;
    query.melds = melds;
    query.forms = forms;
    return check_query(query, SizeRule::kWaiting) == 0 && hand_cost(query) <= 1;
}

std::uint32_t claim_shapes(ClaimQuery& query) {
    std::uint32_t out = 0;
    const int n = query.num_players;
    const int tile = query.tile;
    const bool melds_ok = (query.flags & kMeldsClaimable) != 0;
    for (int step = 1; step < n; ++step) {
        const int seat = (query.discarder + step) % n;
        const std::uint8_t* hand = query.hands[seat];
        unsigned bits = 0;
        if (query.flags & kCheckWins) {
            signed char& ready = query.ready[seat];
            if (ready < 0) ready = hand_ready(hand, query.melds[seat], query.forms) ? 1 : 0;
            if (ready && wins_on(hand, query.melds[seat], tile, query.forms)) bits |= kClaimWin;
        }
        if (melds_ok) {
            if (hand[tile] >= 2) bits |= kClaimPung;
            if (hand[tile] >= 3 && (query.flags & kKongAllowed)) bits |= kClaimKong;
            if (query.chow_seats & (1u << seat)) bits |= chow_bits(hand, tile);
        }
        out |= std::uint32_t(bits) << (8 * seat);
    }
    return out;
}

}  // namespace hupai
