// Wai Huzi split-and-息: every reading of hand + winning card as 3-card groups and one 2-card unit, scored.
//
// Why enumerate layouts rather than run a max-息 DP: the score (WH-33) multiplies 息 by 名堂 that depend on the
// whole layout (对子息 needs every group to be a same-card group, 行行息 every unit to carry 息, the extra pack
// counts all-red units), so the layout with the most 息 is not always the best (WH-E11 shows that even the
// placement of the winning card matters). A hand has at most seven units, and the canonical enumeration below
// visits each distinct split once, so listing them all costs microseconds.
#include "zipai.hpp"

namespace hupai::zipai {
namespace {

// One way the lowest remaining card can be used: the group or unit whose lowest card it is.
struct Shape {
    std::uint8_t size = 0;
    std::array<std::uint8_t, 3> offsets{};  // from the lowest card, ascending
    PartType type = kKan;
};

struct ShapeList {
    std::array<Shape, 9> shapes{};
    int count = 0;
};

// For each value index 0..9 (小一/大壹 .. 小十/大拾), the groups and units a lowest card of that value may start.
// The order fixes the canonical enumeration (see Splitter::search); built once at compile time.
constexpr std::array<ShapeList, kSizeKinds> build_shapes() {
    std::array<ShapeList, kSizeKinds> table{};
    for (int index = 0; index < kSizeKinds; ++index) {
        ShapeList& list = table[index];
        auto add = [&list](std::uint8_t size, std::uint8_t a, std::uint8_t b, std::uint8_t c, PartType type) {
            Shape& shape = list.shapes[list.count++];
            shape.size = size;
            shape.offsets = {a, b, c};
            shape.type = type;
        };
        add(3, 0, 0, 0, kKan);
        if (index <= 7) add(3, 0, 1, 2, kRun);
        if (index == 1) add(3, 0, 5, 8, kRun);  // 二七十 (WH-7)
        add(2, 0, 0, 0, kPair);
        // 门子 (WH-8): two different cards of one size that are two cards of some run.
        if (index <= 8) add(2, 0, 1, 0, kMenzi);
        if (index <= 7) add(2, 0, 2, 0, kMenzi);
        if (index == 1) add(2, 0, 5, 0, kMenzi);  // 二七
        if (index == 1) add(2, 0, 8, 0, kMenzi);  // 二十
        if (index == 6) add(2, 0, 3, 0, kMenzi);  // 七十
    }
    return table;
}
constexpr std::array<ShapeList, kSizeKinds> kShapes = build_shapes();

constexpr bool is_declared_type(int type) { return type >= kWai && type <= kChi; }
constexpr int declared_size(PartType type) { return type == kLiu || type == kPiao ? 4 : 3; }

bool all_red(const Part& part) {
    for (int i = 0; i < part.size; ++i)
        if (!is_red(part.kinds[i])) return false;
    return true;
}

bool any_red(const Part& part) {
    for (int i = 0; i < part.size; ++i)
        if (is_red(part.kinds[i])) return true;
    return false;
}

bool is_run(const Part& part) { return part.type == kRun || part.type == kChi; }
bool is_same_card_group(const Part& part) { return part.size >= 3 && !is_run(part); }
bool is_pair(const Part& part) { return part.type == kPair || part.type == kWinPair; }
bool is_unit(const Part& part) { return part.size == 2; }

// 息 of a run or 门子 (WH-29, WH-30): 1 when every card is one of 二七十.
std::uint8_t shape_xi(const Part& part) {
    switch (part.type) {
        case kKan: return 3;
        case kPair: return 1;
        case kRun:
        case kChi:
        case kMenzi: return all_red(part) ? 1 : 0;
        case kWai:
        case kLiu: return 4;
        case kPeng:
        case kPiao: return 1;
        default: return 0;  // the winning-card parts are set by their source
    }
}

bool valid_run(std::array<std::uint8_t, 3> kinds) {
    if (kinds[0] >= kKinds || kinds[1] >= kKinds || kinds[2] >= kKinds) return false;
    const int size = kinds[0] / kSizeKinds;
    if (kinds[1] / kSizeKinds != size || kinds[2] / kSizeKinds != size) return false;
    const int a = kinds[0] % kSizeKinds, b = kinds[1] % kSizeKinds, c = kinds[2] % kSizeKinds;
    return (b == a + 1 && c == a + 2) || (a == 1 && b == 6 && c == 9);
}

// What every layout of one query shares: the declared groups and the card multiset (colours, sizes, 元).
struct Common {
    int declared_xi = 0;
    bool declared_same = true;      // every declared group is a same-card group (对子息)
    bool declared_positive = true;  // every declared group carries 息 (行行息)
    bool declared_run = false;      // some declared group is a run (strict 行行息)
    bool declared_every_red = true; // every declared group holds a red card (花胡子)
    int declared_all_red = 0;       // declared groups made only of red cards
    int declared_red_in_all_red = 0;
    int reds = 0;
    bool all_small = true, all_big = true;
    KindMask inner = 0, outer = 0;
    std::uint64_t yuan_factor = 1;
};

Common common_of(const Query& query) {
    Common common;
    Counts total = query.hand;
    KindMask external = 0;
    for (const Declared& declared : query.declared) {
        const Part part = declared_part(declared);
        common.declared_xi += part.xi;
        common.declared_same = common.declared_same && is_same_card_group(part);
        common.declared_positive = common.declared_positive && part.xi > 0;
        common.declared_run = common.declared_run || is_run(part);
        common.declared_every_red = common.declared_every_red && any_red(part);
        if (all_red(part)) {
            ++common.declared_all_red;
            common.declared_red_in_all_red += part.size;
        }
        for (int i = 0; i < part.size; ++i) ++total[part.kinds[i]];
        if (declared.external_kind >= 0) external |= KindMask{1} << declared.external_kind;
    }
    if (query.win_card >= 0) {
        ++total[query.win_card];
        if (query.source == kFromOther) external |= KindMask{1} << query.win_card;
    }
    for (int kind = 0; kind < kKinds; ++kind) {
        if (total[kind] == 0) continue;
        if (is_red(kind)) common.reds += total[kind];
        (kind < kSizeKinds ? common.all_big : common.all_small) = false;
        if (total[kind] == kCopies) {  // 元 (WH-34): all four copies in the layout
            const KindMask bit = KindMask{1} << kind;
            if (external & bit) {
                common.outer |= bit;
                common.yuan_factor *= 2;
            } else {
                common.inner |= bit;
                common.yuan_factor *= 4;
            }
        }
    }
    return common;
}

class Splitter {
  public:
    explicit Splitter(const Query& query) : query_(query), common_(common_of(query)), counts_(query.hand) {
        if (query.win_card >= 0) ++counts_[query.win_card];
        // Sizes never mix, so each size splits alone: into triples (its count is 3k) or triples and the unit
        // (3k+2). That fixes the size of the unit, and a size with 3k+1 cards rules the hand out at once.
        int small = 0;
        for (int kind = 0; kind < kSizeKinds; ++kind) small += counts_[kind];
        unit_size_ = small % 3 == 2 ? 0 : small % 3 == 0 ? 1 : -1;
    }

    // Calls visit(layout) for every distinct layout.
    template <class Visit>
    void run(Visit&& visit) {
        if (unit_size_ >= 0) search(0, 0, 0, false, visit);
    }

    // Whether some layout has at least min_huxi 息: the search stops at the first (the 报听 question asks no more).
    bool reaches() {
        if (unit_size_ < 0) return false;
        const int min_xi = query_.options.min_huxi;
        auto visit = [this, min_xi](const Layout& layout) { stopped_ = stopped_ || layout.xi >= min_xi; };
        search<decltype(visit), true>(0, 0, 0, false, visit);
        return stopped_;
    }

  private:
    // Canonical enumeration: the lowest remaining card starts one group or the unit (nothing lower is left to
    // hold it). While the lowest card stays the same kind, shapes are taken in non-decreasing table order, so
    // each multiset of parts is reached along exactly one path.
    // `kStoppable`: return as soon as stopped_ is set (reaches()); run() searches every layout without the test.
    template <class Visit, bool kStoppable = false>
    void search(int depth, int from_kind, int from_shape, bool unit_used, Visit& visit) {
        if constexpr (kStoppable) {
            if (stopped_) return;
        }
        int kind = from_kind;
        while (kind < kKinds && counts_[kind] == 0) ++kind;
        if (kind == kKinds) {
            if (unit_used) place_win_card(depth, visit);
            return;
        }
        const int index = kind % kSizeKinds;
        const int room = kSizeKinds - index;  // shapes never cross from small to big
        const ShapeList& list = kShapes[index];
        for (int s = kind == from_kind ? from_shape : 0; s < list.count; ++s) {
            const Shape& shape = list.shapes[s];
            const bool unit = shape.size == 2;
            if (unit && (unit_used || kind / kSizeKinds != unit_size_)) continue;
            int taken = 0;  // cards removed so far, put back below
            while (taken < shape.size && shape.offsets[taken] < room && counts_[kind + shape.offsets[taken]] > 0)
                --counts_[kind + shape.offsets[taken++]];
            if (taken == shape.size) {
                Part& part = stack_[depth];
                part.type = shape.type;
                part.size = shape.size;
                for (int i = 0; i < shape.size; ++i) part.kinds[i] = std::uint8_t(kind + shape.offsets[i]);
                part.xi = shape_xi(part);
                search<Visit, kStoppable>(depth + 1, kind, s, unit_used || unit, visit);
            }
            while (taken > 0) ++counts_[kind + shape.offsets[--taken]];
        }
    }

    // WH-31: the winning card may sit in any group holding its value; the triplet, the pair, or a run/门子
    // (all runs and 门子 holding it score alike) are the distinct choices.
    template <class Visit>
    void place_win_card(int depth, Visit& visit) {
        Layout layout;
        int unit = -1;
        for (int i = 0; i < depth; ++i) {
            if (is_unit(stack_[i])) unit = i;
        }
        layout.count = 0;
        for (int i = 0; i < depth; ++i)
            if (i != unit) layout.parts[layout.count++] = stack_[i];
        layout.parts[layout.count++] = stack_[unit];
        const int win = query_.win_card;
        if (win < 0) {
            evaluate(layout, visit);
            return;
        }
        const std::uint8_t held_xi = query_.source == kSelfDrawn ? 4 : 1;
        bool in_other = false;
        for (int i = 0; i < layout.count; ++i) {
            Part& part = layout.parts[i];
            bool holds = false;
            for (int c = 0; c < part.size; ++c) holds = holds || part.kinds[c] == win;
            if (!holds) continue;
            if (part.type == kKan || part.type == kPair) {
                const Part saved = part;
                part.type = part.type == kKan ? kWinTriplet : kWinPair;
                part.xi = held_xi;
                evaluate(layout, visit);
                part = saved;
            } else {
                in_other = true;
            }
        }
        if (in_other) evaluate(layout, visit);
    }

    template <class Visit>
    void evaluate(Layout& layout, Visit& visit) const {
        const Common& c = common_;
        const Options& options = query_.options;
        int xi = c.declared_xi;
        bool groups_same = c.declared_same, positive = c.declared_positive, has_run = c.declared_run;
        bool every_red = c.declared_every_red;
        int all_red_units = c.declared_all_red, red_in_all_red = c.declared_red_in_all_red;
        for (int i = 0; i < layout.count; ++i) {
            const Part& part = layout.parts[i];
            xi += part.xi;
            if (!is_unit(part)) groups_same = groups_same && is_same_card_group(part);
            positive = positive && part.xi > 0;
            has_run = has_run || is_run(part);
            every_red = every_red && any_red(part);
            if (all_red(part)) {
                ++all_red_units;
                red_in_all_red += part.size;
            }
        }
        const bool duizi = groups_same && is_pair(layout.parts[layout.count - 1]);
        std::uint32_t flags = 0;
        // WH-36: 对子息 and 行行息 never both apply; 黑对子胡 replaces 对子息 and 黑胡子.
        if (duizi && c.reds == 0) flags |= kHeiDuiziHu;
        else if (duizi) flags |= kDuiziXi;
        if (!duizi && positive && !(options.strict_xingxing && has_run)) flags |= kXingxingXi;
        if (c.reds == 0 && !duizi) flags |= kHeiHuzi;
        if (c.reds == 1) flags |= kYidianHong;
        int doublings = 0;
        if (c.reds >= 10) {
            flags |= kHuohuoFan;
            doublings = c.reds - 9;
        }
        if (options.daxiaozihu && c.all_big) flags |= kDaziHu;
        if (options.daxiaozihu && c.all_small) flags |= kXiaoziHu;
        if (options.extra_mingtang) {
            const int red_elsewhere = c.reds - red_in_all_red;
            if (all_red_units == 1 && red_elsewhere == 0) flags |= kDanPiao;
            if (all_red_units == 2 && red_elsewhere == 0) flags |= kShuangPiao;
            if (all_red_units == 1 && red_elsewhere == 1) flags |= kYin;
            if (every_red) flags |= kHuaHuzi;
        }
        std::uint64_t score = std::uint64_t(xi) * c.yuan_factor;
        for (std::uint32_t bit = 1; bit <= kHuaHuzi; bit <<= 1)
            if (flags & bit) score *= mingtang_factor(bit, doublings);
        layout.xi = xi;
        layout.score = score;
        layout.mingtang = flags;
        layout.huohuo_doublings = doublings;
        layout.inner_yuan = c.inner;
        layout.outer_yuan = c.outer;
        visit(static_cast<const Layout&>(layout));
    }

    const Query& query_;
    Common common_;
    Counts counts_;
    int unit_size_ = -1;  // 0 small, 1 big: the size that holds the 2-card unit; -1 none can
    bool stopped_ = false;  // reaches(): a layout with enough 息 was found
    std::array<Part, kMaxUnits> stack_{};
};

int total_cards(const Counts& counts) {
    int total = 0;
    for (std::uint8_t count : counts) total += count;
    return total;
}

}  // namespace

Part declared_part(const Declared& declared) {
    Part part;
    part.type = declared.type;
    part.size = std::uint8_t(declared_size(declared.type));
    for (int i = 0; i < part.size; ++i) part.kinds[i] = declared.kinds[i < 3 ? i : 0];
    part.xi = shape_xi(part);
    return part;
}

std::uint64_t mingtang_factor(std::uint32_t flag, int huohuo_doublings) {
    switch (flag) {
        case kDuiziXi: return 8;
        case kXingxingXi: return 4;
        case kHeiHuzi: return 8;
        case kHeiDuiziHu: return 32;
        case kYidianHong: return 4;
        case kHuohuoFan: return std::uint64_t{1} << huohuo_doublings;
        case kDaziHu:
        case kXiaoziHu: return 8;
        case kDanPiao:
        case kShuangPiao:
        case kYin: return 2;
        case kHuaHuzi: return 64;
        default: return 1;
    }
}

// The start of a message about declared group g: built only when one is returned (check runs at every offer).
namespace {
std::string where(std::size_t g) { return "declared group " + std::to_string(g) + ": "; }
}  // namespace

std::string check(const Query& query, bool ready) {
    if (query.declared.size() > std::size_t(kMaxGroups))
        return "at most 6 declared groups, got " + std::to_string(query.declared.size());
    Counts total{};
    for (int kind = 0; kind < kKinds; ++kind) {
        if (query.hand[kind] > kCopies)
            return "count " + std::to_string(query.hand[kind]) + " of card " + std::to_string(kind) +
                   " is outside 0..4";
        total[kind] = query.hand[kind];
    }
    for (std::size_t g = 0; g < query.declared.size(); ++g) {
        const Declared& declared = query.declared[g];
        if (!is_declared_type(declared.type)) return where(g) + "type " + std::to_string(int(declared.type)) +
                                                      " is not a declared group type (6..10)";
        for (std::uint8_t kind : declared.kinds)
            if (kind >= kKinds) return where(g) + "card " + std::to_string(kind) + " is not in 0..19";
        if (declared.type == kChi) {
            if (!valid_run(declared.kinds)) return where(g) + "a 吃 must be a run of one size, ascending";
            const int taken = declared.external_kind;
            if (taken != -1 && taken != declared.kinds[0] && taken != declared.kinds[1] && taken != declared.kinds[2])
                return where(g) + "the card taken from another player must be one of the run's cards";
        } else {
            if (declared.kinds[1] != declared.kinds[0] || declared.kinds[2] != declared.kinds[0])
                return where(g) + "a same-card group repeats one card";
            const bool takes = declared.type == kPeng || declared.type == kPiao;
            if (declared.external_kind != (takes ? int(declared.kinds[0]) : -1))
                return where(g) + (takes ? "a 碰 or 飘 takes its card from another player"
                                         : "a 歪 or 溜 takes no card from another player");
        }
        const Part part = declared_part(declared);
        for (int i = 0; i < part.size; ++i) ++total[part.kinds[i]];
    }
    if (ready) {
        const int held = total_cards(query.hand);
        if (held % 3 != 1) return "a hand waiting to win holds 3m+1 cards, got " + std::to_string(held);
        if ((held - 1) / 3 + int(query.declared.size()) > kMaxGroups)
            return "hand and declared groups make more than six groups";
    } else {
        if (query.win_card < -1 || query.win_card >= kKinds)
            return "the winning card " + std::to_string(query.win_card) + " is not in 0..19 (or -1 for none)";
        if ((query.win_card < 0) != (query.source == kNoWinCard))
            return query.win_card < 0 ? "a source needs a winning card" : "a winning card needs a source (1 or 2)";
        if (query.source > kFromOther) return "source must be 0 (none), 1 (self-drawn) or 2 (from another player)";
        if (query.win_card >= 0) ++total[query.win_card];
        const int cards = total_cards(query.hand) + (query.win_card >= 0 ? 1 : 0);
        if (cards % 3 != 2)
            return "hand and winning card must number 3m+2 (groups and one 2-card unit), got " + std::to_string(cards);
        if ((cards - 2) / 3 + int(query.declared.size()) > kMaxGroups)
            return "hand and declared groups make more than six groups";
    }
    for (int kind = 0; kind < kKinds; ++kind)
        if (total[kind] > kCopies)
            return std::to_string(int(total[kind])) + " copies of card " + std::to_string(kind) +
                   " in hand, groups and winning card: there are only 4";
    return "";
}

std::vector<Layout> layouts(const Query& query) {
    std::vector<Layout> out;
    Splitter(query).run([&out](const Layout& layout) { out.push_back(layout); });
    return out;
}

Best best_layout(const Query& query) {
    Best best;
    Splitter(query).run([&best, &query](const Layout& layout) {
        if (layout.xi > best.max_xi) best.max_xi = layout.xi;
        if (layout.xi < query.options.min_huxi) return;
        if (!best.found || layout.score > best.layout.score ||
            (layout.score == best.layout.score && layout.xi > best.layout.xi)) {
            best.found = true;
            best.layout = layout;
        }
    });
    return best;
}

bool reaches_min_huxi(const Query& query) { return Splitter(query).reaches(); }

Counts with_declared(const Query& query) {
    Counts total = query.hand;
    for (const Declared& declared : query.declared) {
        const Part part = declared_part(declared);
        for (int i = 0; i < part.size; ++i) ++total[part.kinds[i]];
    }
    return total;
}

std::vector<Wait> waits(const Query& query) {
    std::vector<Wait> out;
    const Counts total = with_declared(query);
    Query trial = query;
    for (int card = 0; card < kKinds; ++card) {
        if (total[card] >= kCopies) continue;  // no fifth copy to win on
        trial.win_card = card;
        trial.source = kSelfDrawn;
        Wait wait;
        wait.card = card;
        wait.self_drawn = best_layout(trial);
        if (wait.self_drawn.max_xi < 0) continue;  // no split at all: the source cannot change that
        trial.source = kFromOther;
        wait.from_other = best_layout(trial);
        if (wait.self_drawn.found || wait.from_other.found) out.push_back(wait);
    }
    return out;
}

}  // namespace hupai::zipai
