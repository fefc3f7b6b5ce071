// Yunxiao's hand questions (see wild_yunxiao.hpp). Each mirrors its Python counterpart in
// hupai.rules.yunxiao.patterns step by step; the tests compare them on random and exhaustive hands.
#include "wild_yunxiao.hpp"

#include <array>
#include <string>

#include "analysis.hpp"

namespace hupai::yunxiao {
namespace {

// --- 不搭 (YX-35) suit shapes: a suit's numbers as 9 bits (bit n-1 = number n) -----------------------------

constexpr bool knitted(unsigned mask) {  // pairwise 3 or more apart
    int last = -9;
    for (int n = 0; n < kSuitKinds; ++n) {
        if (!(mask >> n & 1)) continue;
        if (n - last < 3) return false;
        last = n;
    }
    return true;
}

constexpr int popcount9(unsigned mask) {
    int bits = 0;
    for (int n = 0; n < kSuitKinds; ++n) bits += int(mask >> n & 1);
    return bits;
}

// Per suit mask: -1 if not knitted, else how many more numbers a knitted superset can take (the Python
// _KNIT_ROOM). A strict 不搭 suit (inside one of the ten triples 147..369) is a knitted one with room up to 3.
struct KnitTable {
    std::array<std::int8_t, 512> room{};
    constexpr KnitTable() {
        for (unsigned mask = 0; mask < 512; ++mask) {
            int best = -1;
            if (knitted(mask)) {
                for (unsigned super = 0; super < 512; ++super)
                    if ((super & mask) == mask && knitted(super) && popcount9(super) - popcount9(mask) > best)
                        best = popcount9(super) - popcount9(mask);
            }
            room[mask] = std::int8_t(best);
        }
    }
};
constexpr KnitTable kKnit{};

// --- one hand's views -----------------------------------------------------------------------------------

// The counts the forms read (patterns.py's YunxiaoHand fields): natural counts by effective kind (白板 in G's
// place), the golds, and the plain counts (白板 as 白板, no golds) that 幺九 and 不搭 read.
struct Views {
    KindCounts natural{};
    KindCounts plain{};
    int golds = 0;
    int size = 0;
};

Views views_of(const Hand& hand) {
    Views v;
    v.plain = hand.physical;
    v.golds = v.plain[hand.gold];
    v.plain[hand.gold] = 0;
    v.natural = v.plain;
    if (hand.gold != kWhite) {
        v.natural[hand.gold] = v.natural[kWhite];
        v.natural[kWhite] = 0;
    }
    for (int kind = 0; kind < kNumKinds; ++kind) v.size += hand.physical[kind];
    return v;
}

// The core's question about a hand's natural tiles, its golds as jokers of any kind (the views must outlive it).
HandQuery natural_query(const Views& v, int melds, unsigned forms) {
    HandQuery query;
    query.counts = v.natural.data();
    query.jokers = v.golds;
    query.melds = melds;
    query.forms = forms;
    return query;
}

int effective(int kind, int gold) { return kind == kWhite && gold != kWhite ? gold : kind; }

// YX-8: how many golds may stand for each kind (4 less its natural and declared tiles; none for 白板 when it
// plays as G, since then no tile is 白板).
KindCounts room_of(const Hand& hand, const KindCounts& natural) {
    KindCounts room{};
    for (int kind = 0; kind < kNumKinds; ++kind) {
        const int left = kMaxCopies - natural[kind] - hand.meld_tiles[kind];
        room[kind] = std::uint8_t(left > 0 ? left : 0);
    }
    if (hand.gold != kWhite) room[kWhite] = 0;
    return room;
}

bool core_complete(const KindCounts& natural, int jokers, int melds, unsigned forms) {
    HandQuery query;
    query.counts = natural.data();
    query.jokers = jokers;
    query.melds = melds;
    query.forms = forms;
    return hand_complete(query);
}

unsigned structured_forms(int melds) { return melds ? kStandard : kStandard | kSevenPairsQuads; }

// YX-32 平胡 (is_standard) and YX-33 对对胡 (is_seven_pairs) of a complete-size hand.
bool structured(const Hand& hand, const Views& v) {
    if (core_complete(v.natural, v.golds, hand.melds, kStandard) &&
        (!(hand.melds && v.golds) || fits_with_jokers(v.natural, v.golds, kMaxMelds - hand.melds, 1,
                                                       room_of(hand, v.natural))))
        return true;
    return hand.melds == 0 && v.size == kMaxConcealed &&
           core_complete(v.natural, v.golds, 0, kSevenPairsQuads) &&
           fits_with_jokers(v.natural, v.golds, 0, 7, room_of(hand, v.natural));
}

// YX-34 幺九 without the tile count: no suited 2..8 among the plain tiles, and a gold only if G is 幺九.
bool terminals_honors_only(const KindCounts& plain) {
    for (int kind = 0; kind < kFirstHonor; ++kind)
        if (plain[kind] && !(kOrphanMask >> kind & 1)) return false;
    return true;
}

unsigned suit_mask(const KindCounts& plain, int suit) {
    unsigned mask = 0;
    for (int n = 0; n < kSuitKinds; ++n) mask |= unsigned(plain[suit * kSuitKinds + n] != 0) << n;
    return mask;
}

int honors(const KindCounts& plain) {
    int count = 0;
    for (int kind = kFirstHonor; kind < kNumKinds; ++kind) count += plain[kind];
    return count;
}

// YX-35 不搭 without the tile count (_bu_da_shape): distinct plain tiles, each suit knitted (strict: inside one
// of the ten triples, at most five honors).
bool bu_da_shape(const KindCounts& plain, bool loose) {
    for (int kind = 0; kind < kNumKinds; ++kind)
        if (plain[kind] > 1) return false;
    if (!loose && honors(plain) > 5) return false;
    for (int suit = 0; suit < 3; ++suit) {
        const int room = kKnit.room[suit_mask(plain, suit)];
        if (room < 0) return false;
        if (!loose && popcount9(suit_mask(plain, suit)) + room != 3) return false;
    }
    return true;
}

// is_bu_da of a 14-tile fully concealed hand.
bool bu_da(const Views& v, bool loose) {
    if (!bu_da_shape(v.plain, loose)) return false;
    if (!loose) return true;  // 14 tiles, at most 3 per suit and 5 honors: the golds fill exactly the gaps
    int room = kNumHonors - honors(v.plain);
    for (int suit = 0; suit < 3; ++suit) room += kKnit.room[suit_mask(v.plain, suit)];
    return v.golds <= room;
}

bool yao_jiu(const Hand& hand, const Views& v) {
    return (v.golds == 0 || (kOrphanMask >> hand.gold & 1)) && terminals_honors_only(v.plain);
}

// What a waiting hand can complete: the forms worth trying for each added tile (hand_waits' candidates).
struct Reach {
    bool structured = false;
    bool yao_jiu = false;
    bool bu_da = false;
};

bool complete_in(const Hand& hand, const Views& v, bool loose, const Reach& reach) {
    if (v.size != 3 * (kMaxMelds - hand.melds) + 2) return false;
    if (reach.structured && structured(hand, v)) return true;
    if (hand.melds || v.size != kMaxConcealed) return false;
    return (reach.yao_jiu && yao_jiu(hand, v)) || (reach.bu_da && bu_da(v, loose));
}

void add_tile(Views& v, int kind, int gold) {
    ++v.size;
    if (kind == gold) {
        ++v.golds;
    } else {
        ++v.natural[effective(kind, gold)];
        ++v.plain[kind];
    }
}

void remove_tile(Views& v, int kind, int gold) {
    --v.size;
    if (kind == gold) {
        --v.golds;
    } else {
        --v.natural[effective(kind, gold)];
        --v.plain[kind];
    }
}

bool you_shape_views(const Hand& hand, const Views& v) {
    const int sets = kMaxMelds - hand.melds;
    if (v.golds < 1 || v.size != 3 * sets + 1) return false;
    // If the hand less its floating gold forms the melds, two more golds as a pair complete it within the core's
    // four-of-a-kind bound (looser than YX-8): one table evaluation rejects most hands.
    if (!core_complete(v.natural, v.golds + 1, hand.melds, structured_forms(hand.melds))) return false;
    const KindCounts room = room_of(hand, v.natural);
    return fits_with_jokers(v.natural, v.golds - 1, sets, 0, room) ||
           (hand.melds == 0 && fits_with_jokers(v.natural, v.golds - 1, 0, 6, room));
}

}  // namespace

Hand make_hand(const KindCounts& physical, int gold, const std::uint8_t* meld_kinds, int meld_count, int melds) {
    if (gold < 0 || gold >= kNumKinds) throw InvalidHand("the gold kind must be a kind in 0..33, got " +
                                                         std::to_string(gold));
    if (melds < 0 || melds > kMaxMelds)
        throw InvalidHand("melds must be 0..4, got " + std::to_string(melds));
    if (meld_count < 3 * melds || meld_count > 4 * melds)
        throw InvalidHand(std::to_string(melds) + " declared melds hold 3 to 4 tiles each, got " +
                          std::to_string(meld_count) + " tiles");
    Hand hand;
    hand.gold = gold;
    hand.melds = melds;
    for (int kind = 0; kind < kNumKinds; ++kind) {
        if (physical[kind] > kMaxCopies)
            throw InvalidHand(std::to_string(int(physical[kind])) + " tiles of " + kind_name(kind) +
                              ": there are only four");
        hand.physical[kind] = physical[kind];
    }
    for (int i = 0; i < meld_count; ++i) {
        if (meld_kinds[i] >= kNumKinds)
            throw InvalidHand("meld tile " + std::to_string(i) + " is " + std::to_string(int(meld_kinds[i])) +
                              ", not a kind in 0..33");
        ++hand.meld_tiles[effective(meld_kinds[i], gold)];
    }
    return hand;
}

int tiles(const Hand& hand) {
    int total = 0;
    for (int kind = 0; kind < kNumKinds; ++kind) total += hand.physical[kind];
    return total;
}

std::uint64_t waits(const Hand& hand, bool loose) {
    Views v = views_of(hand);
    const int size = 3 * (kMaxMelds - hand.melds) + 1;
    if (v.size != size)
        throw InvalidHand("a waiting hand with " + std::to_string(hand.melds) + " melds has " + std::to_string(size) +
                          " concealed tiles, got " + std::to_string(v.size));
    // The candidates of hand_waits: a structured form only if the core finds the hand one tile short of one (a
    // tile that completes it would be among the core's waits), 幺九 / 不搭 only if the plain tiles are already
    // in that shape (taking tiles away keeps a hand in shape).
    Reach reach;
    reach.structured = hand_cost(natural_query(v, hand.melds, structured_forms(hand.melds))) <= 1;
    if (hand.melds == 0) {
        reach.yao_jiu = terminals_honors_only(v.plain);
        reach.bu_da = bu_da_shape(v.plain, loose);
    }
    if (!reach.structured && !reach.yao_jiu && !reach.bu_da) return 0;
    std::uint64_t found = 0;
    for (int kind = 0; kind < kNumKinds; ++kind) {
        if (hand.physical[kind] >= kMaxCopies) continue;
        add_tile(v, kind, hand.gold);
        if (complete_in(hand, v, loose, reach)) found |= std::uint64_t{1} << kind;
        remove_tile(v, kind, hand.gold);
    }
    return found;
}

bool complete(const Hand& hand, bool loose) {
    return complete_in(hand, views_of(hand), loose, Reach{true, true, true});
}

bool you_shape(const Hand& hand) { return you_shape_views(hand, views_of(hand)); }

std::uint64_t you_shape_discards(const Hand& hand) {
    Views v = views_of(hand);
    const int sets = kMaxMelds - hand.melds;
    if (v.golds < 1 || v.size != 3 * sets + 2) return 0;  // the shape needs a gold left after the discard
    std::uint64_t found = 0;
    for (int kind = 0; kind < kNumKinds; ++kind) {
        if (!hand.physical[kind]) continue;
        remove_tile(v, kind, hand.gold);
        if (you_shape_views(hand, v)) found |= std::uint64_t{1} << kind;
        add_tile(v, kind, hand.gold);
    }
    return found;
}

int shanten(const Hand& hand, unsigned forms) {
    const Views v = views_of(hand);
    const HandQuery query = natural_query(v, hand.melds, forms);
    require_valid(query, SizeRule::kAny);
    return hand_cost(query) - 1;
}

void discard_shanten(const Hand& hand, unsigned forms, std::int8_t* out) {
    Views v = views_of(hand);
    HandQuery query = natural_query(v, hand.melds, forms);
    require_valid(query, SizeRule::kAny);
    for (int kind = 0; kind < kNumKinds; ++kind) {
        out[kind] = 127;
        if (!hand.physical[kind]) continue;
        remove_tile(v, kind, hand.gold);
        query.jokers = v.golds;
        out[kind] = std::int8_t(hand_cost(query) - 1);
        add_tile(v, kind, hand.gold);
    }
}

}  // namespace hupai::yunxiao
