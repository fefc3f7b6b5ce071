// Wai Huzi (歪胡子) 80-card zipai: splitting a winning layout and scoring it (spec waihuzi.md WH-28..36, WH-41).
//
// Plain C++: no Python here (register_zipai.cpp binds it). Cards are kinds 0..19: 0..9 = 小一..小十,
// 10..19 = 大壹..大拾 (DESIGN §2).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace hupai::zipai {

constexpr int kKinds = 20;
constexpr int kSizeKinds = 10;  // kinds per size (small, big)
constexpr int kCopies = 4;
constexpr int kMaxUnits = 7;    // six groups and the 2-card unit (WH-28)
constexpr int kMaxGroups = 6;

using Counts = std::array<std::uint8_t, kKinds>;
using KindMask = std::uint32_t;  // bit k = kind k

// Red cards (红字, WH-2): the values 2, 7 and 10 of both sizes.
constexpr bool is_red(int kind) {
    const int value = kind % kSizeKinds + 1;
    return value == 2 || value == 7 || value == 10;
}

// A part of a layout. The first six come from splitting the hand (and the winning card); the rest are declared
// groups, fixed before the win (WH-9).
enum PartType : std::uint8_t {
    kKan = 0,         // 坎: a triplet of held cards, 3 息
    kWinTriplet = 1,  // a triplet completed by the winning card: 4 self-drawn (歪-type), 1 otherwise (碰-type)
    kRun = 2,         // a run from the hand: 1 息 for 二七十, 0 otherwise
    kPair = 3,        // a pair already held, 1 息
    kWinPair = 4,     // a pair completed by the winning card: 4 self-drawn (单歪), 1 otherwise (单碰)
    kMenzi = 5,       // 门子: 1 息 for two 二七十 cards, 0 otherwise
    kWai = 6,         // declared 歪, 4 息
    kPeng = 7,        // declared 碰, 1 息
    kLiu = 8,         // declared 溜 (4 cards), 4 息
    kPiao = 9,        // declared 飘 (4 cards), 1 息
    kChi = 10,        // declared chowed run (吃), 1 息 for 二七十, 0 otherwise
};
constexpr int kPartTypes = 11;

// Where the winning card came from.
enum Source : std::uint8_t {
    kNoWinCard = 0,  // 天胡: the dealt cards alone (WH-40)
    kSelfDrawn = 1,  // the winner turned it up itself
    kFromOther = 2,  // another player's discard or drawn card
};

// 名堂 that depend on the cards and the layout (WH-35, WH-41). The context ones (天胡/地胡, 报听, 海底捞, 神腰)
// multiply every layout alike, so they cannot change which layout is best; the caller applies them.
enum Mingtang : std::uint32_t {
    kDuiziXi = 1u << 0,      // 对子息 ×8
    kXingxingXi = 1u << 1,   // 行行息 ×4
    kHeiHuzi = 1u << 2,      // 黑胡子 ×8
    kHeiDuiziHu = 1u << 3,   // 黑对子胡 ×32 (replaces 对子息 and 黑胡子)
    kYidianHong = 1u << 4,   // 一点红 ×4
    kHuohuoFan = 1u << 5,    // 火火翻 ×2^(reds-9)
    kDaziHu = 1u << 6,       // 大字胡 ×8
    kXiaoziHu = 1u << 7,     // 小字胡 ×8
    kDanPiao = 1u << 8,      // 单漂 ×2 (extra pack)
    kShuangPiao = 1u << 9,   // 双漂 ×2
    kYin = 1u << 10,         // 印 ×2
    kHuaHuzi = 1u << 11,     // 花胡子 ×64
};

struct Part {
    PartType type = kKan;
    std::uint8_t size = 0;                 // 2, 3 or 4 cards
    std::array<std::uint8_t, 4> kinds{};   // ascending; the first `size` are used
    std::uint8_t xi = 0;
};

// A group declared before the win. Same-card groups repeat their kind; a 吃 lists its three kinds.
// `external_kind` is the kind of the card taken from another player (its discard or its drawn card), or -1:
// 碰 and 飘 always took one (their own kind), 歪 and 溜 never did, a 吃 did unless it took its own drawn card.
struct Declared {
    PartType type = kPeng;
    std::array<std::uint8_t, 3> kinds{};
    int external_kind = -1;
};

struct Options {
    int min_huxi = 5;             // WH-32
    bool strict_xingxing = false; // WH-37 xingxingxi = "strict"
    bool daxiaozihu = true;       // WH-35 大字胡 / 小字胡
    bool extra_mingtang = false;  // WH-41
};

struct Query {
    Counts hand{};                  // held cards, the winning card not included
    std::vector<Declared> declared; // at most six
    int win_card = -1;              // -1 with kNoWinCard
    Source source = kNoWinCard;
    Options options;
};

// One way to read the winning hand: its hand parts (the 2-card unit last), 息 and score.
struct Layout {
    std::array<Part, kMaxUnits> parts{};
    int count = 0;
    int xi = 0;                       // total, declared groups included
    std::uint64_t score = 0;          // 底息 × 名堂 × 内元 × 外元, without the context 名堂
    std::uint32_t mingtang = 0;       // Mingtang flags
    int huohuo_doublings = 0;         // reds − 9 when 火火翻 applies
    KindMask inner_yuan = 0;          // 内元 kinds (×4 each)
    KindMask outer_yuan = 0;          // 外元 kinds (×2 each)
};

struct Best {
    bool found = false;  // some layout reaches min_huxi
    Layout layout;       // the highest score among those (then the most 息, then the first found)
    int max_xi = -1;     // the most 息 of any layout, qualifying or not; -1 if the hand does not split
};

struct Wait {
    int card = 0;
    Best self_drawn;
    Best from_other;
};

// The reason a query is malformed, or "" if it is well formed. `ready` = the hand has 3m+1 cards and the
// winning card is left out (for waits), otherwise hand + winning card must number 3m+2.
std::string check(const Query& query, bool ready = false);

// Every layout (distinct split and placement of the winning card), min_huxi ignored. The query must be valid.
std::vector<Layout> layouts(const Query& query);

// The best layout under WH-31/WH-33. The query must be valid.
Best best_layout(const Query& query);
// best_layout(query).found, without finding the best: true at the first layout of at least min_huxi 息.
bool reaches_min_huxi(const Query& query);

// For a 3m+1 hand (win_card and source ignored): every card that wins, self-drawn or from another player.
std::vector<Wait> waits(const Query& query);

// A declared group as a part of the layout, with its 息 (WH-9).
Part declared_part(const Declared& declared);

// The query's hand with its declared groups' cards added: the copies of each card the seat holds in all.
Counts with_declared(const Query& query);

// The multiplier a 名堂 flag stands for (火火翻 needs the number of doublings).
std::uint64_t mingtang_factor(std::uint32_t flag, int huohuo_doublings);

}  // namespace hupai::zipai
