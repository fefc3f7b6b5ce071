// pybind11 bindings of the Wai Huzi core (zipai.hpp): argument checks, GIL release, plain data in and out.
// hupai.zipai.analysis validates and names things; these calls still refuse anything malformed.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <climits>
#include <new>
#include <array>
#include <cstring>
#include <tuple>

#include "pyargs.hpp"
#include "register.hpp"
#include "tiles.hpp"
#include "zipai.hpp"
#include "zipai_advice.hpp"

namespace py = pybind11;
using namespace hupai::zipai;

namespace {

using DeclaredTuple = std::tuple<int, int, int, int, int>;  // (type, kind, kind, kind, external kind or -1)
using OptionsTuple = std::tuple<int, bool, bool, bool>;     // (min_huxi, strict 行行息, 大/小字胡, extra pack)

[[noreturn]] void invalid(const std::string& message) { throw hupai::InvalidHand(message); }

Counts read_hand(const py::array_t<std::uint8_t, py::array::c_style>& hand) {
    if (hand.ndim() != 1 || hand.shape(0) != kKinds) invalid("a zipai hand must be a uint8[20] counts vector");
    Counts counts;
    std::memcpy(counts.data(), hand.data(), kKinds);
    return counts;
}

Options read_options(const OptionsTuple& options) {
    Options out;
    out.min_huxi = std::get<0>(options);
    out.strict_xingxing = std::get<1>(options);
    out.daxiaozihu = std::get<2>(options);
    out.extra_mingtang = std::get<3>(options);
    return out;
}

std::vector<Declared> read_declared(const std::vector<DeclaredTuple>& groups) {
    std::vector<Declared> out;
    for (const auto& [type, a, b, c, external] : groups) {
        for (int value : {type, a, b, c})
            if (value < 0 || value > 255) invalid("a declared group holds small non-negative ints");
        if (external < -1 || external >= kKinds) invalid("a declared group's external card must be -1 or 0..19");
        Declared declared;
        declared.type = PartType(type);
        declared.kinds = {std::uint8_t(a), std::uint8_t(b), std::uint8_t(c)};
        declared.external_kind = external;
        out.push_back(declared);
    }
    return out;
}

Query make_query(const py::array_t<std::uint8_t, py::array::c_style>& hand, const std::vector<DeclaredTuple>& groups,
                 int win_card, int source, const OptionsTuple& options) {
    if (source < 0 || source > kFromOther) invalid("source must be 0 (none), 1 (self-drawn) or 2 (from another player)");
    Query query;
    query.hand = read_hand(hand);
    query.declared = read_declared(groups);
    query.win_card = win_card;
    query.source = Source(source);
    query.options = read_options(options);
    return query;
}

void require(const Query& query, bool ready) {
    const std::string problem = check(query, ready);
    if (!problem.empty()) invalid(problem);
}

py::tuple part_tuple(const Part& part) {
    py::tuple kinds(part.size);
    for (int c = 0; c < part.size; ++c) kinds[c] = int(part.kinds[c]);
    return py::make_tuple(int(part.type), kinds, int(part.xi));
}

// The declared groups come first, so that Python reads every part and its 息 from the core alone.
py::tuple layout_tuple(const Layout& layout, const std::vector<Declared>& declared) {
    const std::size_t count = declared.size() + std::size_t(layout.count);
    py::tuple parts(count);
    for (std::size_t i = 0; i < declared.size(); ++i) parts[i] = part_tuple(declared_part(declared[i]));
    for (int i = 0; i < layout.count; ++i) parts[declared.size() + std::size_t(i)] = part_tuple(layout.parts[i]);
    return py::make_tuple(parts, layout.xi, layout.score, layout.mingtang, layout.huohuo_doublings,
                          layout.inner_yuan, layout.outer_yuan);
}

py::tuple best_tuple(const Best& best, const std::vector<Declared>& declared) {
    return py::make_tuple(best.max_xi,
                          best.found ? py::object(layout_tuple(best.layout, declared)) : py::object(py::none()));
}

// 20 counts from a uint8 numpy array of shape (20,) (any strides) or 20 bytes; anything else, or a count above
// four, is refused. The values are copied once, then checked.
Counts read_counts20(const py::handle& value, const char* name) {
    Counts counts{};
    if (py::isinstance<py::bytes>(value) || py::isinstance<py::bytearray>(value)) {
        const std::string raw = py::isinstance<py::bytes>(value) ? std::string(py::reinterpret_borrow<py::bytes>(value))
                                                                  : std::string(py::reinterpret_borrow<py::bytearray>(value));
        if (raw.size() != std::size_t(kKinds)) invalid(std::string(name) + " must be 20 counts");
        std::memcpy(counts.data(), raw.data(), kKinds);
    } else if (py::isinstance<py::array>(value)) {
        const auto array = py::reinterpret_borrow<py::array>(value);
        if (!array.dtype().is(py::dtype::of<std::uint8_t>()) || array.ndim() != 1 || array.shape(0) != kKinds)
            invalid(std::string(name) + " must be a uint8[20] counts array");
        const auto* base = static_cast<const char*>(array.data());
        for (int kind = 0; kind < kKinds; ++kind)
            counts[kind] = *reinterpret_cast<const std::uint8_t*>(base + kind * array.strides(0));
    } else {
        invalid(std::string(name) + " must be a uint8[20] counts array or 20 bytes");
    }
    for (int kind = 0; kind < kKinds; ++kind)
        if (counts[kind] > kCopies)
            invalid(std::string(name) + ": count " + std::to_string(counts[kind]) + " of card " +
                    std::to_string(kind) + " is outside 0..4");
    return counts;
}

using ClaimTuple = std::tuple<int, int, int, int>;  // (0 飘 / 1 碰 / 2 吃, offered card, 门子 low, high or -1)

void write_judgement(std::int64_t* row, const Judgement& judged) {
    row[0] = judged.wait_value;
    row[1] = judged.closeness;
    row[2] = judged.xi;
}

// An advice query from the binding's arguments, checked (InvalidHand for anything malformed).
AdviceQuery read_advice(const py::handle& hand, const std::vector<DeclaredTuple>& declared, const py::handle& unseen,
                        long long forbidden, const OptionsTuple& options, const std::vector<ClaimTuple>& claims) {
    AdviceQuery advice;
    advice.query.hand = read_counts20(hand, "hand");
    advice.query.declared = read_declared(declared);
    advice.query.declared.reserve(std::size_t(kMaxGroups) + 1);  // room for a claimed group
    advice.query.options = read_options(options);
    advice.unseen = read_counts20(unseen, "unseen");
    if (forbidden < 0 || forbidden >= (1LL << kKinds)) invalid("forbidden cards must be a mask of cards 0..19");
    advice.forbidden = KindMask(forbidden);
    for (const auto& [kind, card, low, high] : claims) {
        if (kind < 0 || kind > kClaimChi) invalid("a claim is 0 (飘), 1 (碰) or 2 (吃)");
        if (low < -1 || low >= kKinds || high < -1 || high >= kKinds)
            invalid("a 吃's held cards must be in 0..19 (or -1 for none)");
        advice.claims.push_back(Claim{ClaimKind(kind), card, low, high});
    }
    const std::string problem = check_advice(advice);
    if (!problem.empty()) invalid(problem);
    return advice;
}

// Judges a checked query with the GIL released.
AdviceResult run_advice(AdviceQuery& advice) {
    AdviceResult result;
    result.claims.resize(advice.claims.size());
    py::gil_scoped_release release;
    advise(advice, result);
    return result;
}

struct BatchOut {
    std::int16_t* xi;        // 息 of the best layout, -1 when no layout reaches min_huxi
    std::int64_t* score;     // its score, 0 when none
    std::int16_t* max_xi;    // the most 息 of any layout, -1 when the hand does not split
};


// --- zipai_offer_wins: a raw METH_FASTCALL function (the flow asks it at every offered card, and pybind11's
// conversion of three arrays and three lists of tuples cost more than the search it feeds) ---------------------

using hupai::binding::Read;

// A sequence's items without copying (a list or tuple as it is); null with TypeError set for anything else or
// another length (`size` -1: any).
PyObject* fast_sequence(PyObject* value, const char* what, Py_ssize_t size) {
    PyObject* fast = PySequence_Fast(value, what);
    if (fast == nullptr) return nullptr;
    const Py_ssize_t got = PySequence_Fast_GET_SIZE(fast);  // of the list or tuple made: `value` may be neither
    if (size >= 0 && got != size) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_TypeError, "%s (got %zd items)", what, got);
        return nullptr;
    }
    return fast;
}

bool read_options_raw(PyObject* value, Options& out) {
    PyObject* fast = fast_sequence(value, "options must be (min_huxi, strict, daxiaozihu, extra_mingtang)", 4);
    if (fast == nullptr) return false;
    PyObject** items = PySequence_Fast_ITEMS(fast);
    long long min_huxi = 0;
    bool ok = hupai::binding::read_int(items[0], "min_huxi", INT32_MIN, INT32_MAX, min_huxi, PyExc_TypeError);
    int flags[3] = {0, 0, 0};
    for (int i = 0; ok && i < 3; ++i) ok = (flags[i] = PyObject_IsTrue(items[1 + i])) >= 0;
    Py_DECREF(fast);
    if (!ok) return false;
    out.min_huxi = int(min_huxi);
    out.strict_xingxing = flags[0] != 0;
    out.daxiaozihu = flags[1] != 0;
    out.extra_mingtang = flags[2] != 0;
    return true;
}

// A seat's declared groups, (type, kind, kind, kind, external kind or -1) each, as read_declared reads them.
bool read_declared_raw(PyObject* value, std::vector<Declared>& out) {
    out.clear();
    PyObject* fast = fast_sequence(value, "declared groups must be a sequence of (type, a, b, c, external)", -1);
    if (fast == nullptr) return false;
    const Py_ssize_t count = PySequence_Fast_GET_SIZE(fast);
    bool ok = true;
    for (Py_ssize_t g = 0; ok && g < count; ++g) {
        PyObject* group = fast_sequence(PySequence_Fast_GET_ITEM(fast, g),
                                        "a declared group must be (type, a, b, c, external)", 5);
        if (group == nullptr) {
            ok = false;
            break;
        }
        PyObject** items = PySequence_Fast_ITEMS(group);
        long long values[5] = {0, 0, 0, 0, 0};
        for (int i = 0; ok && i < 5; ++i)
            ok = hupai::binding::read_int(items[i], "a declared group's value", INT32_MIN, INT32_MAX, values[i],
                                          PyExc_TypeError);
        Py_DECREF(group);
        if (!ok) break;
        for (int i = 0; i < 4; ++i)
            if (values[i] < 0 || values[i] > 255) {
                hupai::binding::set_invalid_hand("a declared group holds small non-negative ints");
                ok = false;
            }
        if (ok && (values[4] < -1 || values[4] >= kKinds)) {
            hupai::binding::set_invalid_hand("a declared group's external card must be -1 or 0..19");
            ok = false;
        }
        if (!ok) break;
        Declared declared;
        declared.type = PartType(values[0]);
        declared.kinds = {std::uint8_t(values[1]), std::uint8_t(values[2]), std::uint8_t(values[3])};
        declared.external_kind = int(values[4]);
        out.push_back(declared);
    }
    Py_DECREF(fast);
    return ok;
}

// The queries of the seats in `asked` (a mask) on the offered `card` from `source`: their hands and declared groups
// read and checked, and with `search` each query checked as a win search's (WH-32); false with the error set.
// Seats not asked are not read (a 死手 seat's, a discard's discarder's).
bool read_queries(PyObject* hands_arg, PyObject* declared_arg, int asked, int card, int source, bool drawn,
                  const Options& options, bool search, std::array<Query, 3>& queries) {
    PyObject* hands = fast_sequence(hands_arg, "hands must be a sequence of 3 counts vectors", 3);
    if (hands == nullptr) return false;
    PyObject* declared = fast_sequence(declared_arg, "declared must be a sequence of 3 seats' groups", 3);
    if (declared == nullptr) {
        Py_DECREF(hands);
        return false;
    }
    bool ok = true;
    for (int seat = 0; ok && seat < 3; ++seat) {
        if (!(asked >> seat & 1)) continue;
        Query& query = queries[seat];
        const Read read = hupai::binding::read_counts20(PySequence_Fast_GET_ITEM(hands, seat), query.hand.data());
        if (read == Read::kNotPlain)
            hupai::binding::set_invalid_hand("a zipai hand must be a uint8[20] counts vector");
        ok = read == Read::kDone && read_declared_raw(PySequence_Fast_GET_ITEM(declared, seat), query.declared);
        if (!ok || !search) continue;
        query.win_card = card;
        query.source = drawn && seat == source ? kSelfDrawn : kFromOther;
        query.options = options;
        const std::string problem = check(query, false);
        if (!problem.empty()) {
            hupai::binding::set_invalid_hand(problem);
            ok = false;
        }
    }
    Py_DECREF(hands);
    Py_DECREF(declared);
    return ok;
}

// zipai_offer_wins(hands, declared, card, source, drawn, seats, options) -> int: the flow's claim scan (WH-32),
// which of the asked seats win on the offered card, in one call. Everything is read and checked first; the search
// runs without the GIL.
PyObject* zipai_offer_wins(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 7) {
        PyErr_Format(PyExc_TypeError,
                     "zipai_offer_wins expects 7 arguments (hands, declared, card, source, drawn, seats, options), "
                     "got %zd", nargs);
        return nullptr;
    }
    long long card = 0, source = 0, seats = 0;
    if (!hupai::binding::read_int(args[2], "card", LLONG_MIN, LLONG_MAX, card, PyExc_TypeError) ||
        !hupai::binding::read_int(args[3], "source", LLONG_MIN, LLONG_MAX, source, PyExc_TypeError))
        return nullptr;
    const int drawn = PyObject_IsTrue(args[4]);
    if (drawn < 0 || !hupai::binding::read_int(args[5], "seats", LLONG_MIN, LLONG_MAX, seats, PyExc_TypeError))
        return nullptr;
    Options options;
    if (!read_options_raw(args[6], options)) return nullptr;
    if (card < 0 || card >= kKinds) {
        hupai::binding::set_invalid_hand("the offered card must be 0..19");
        return nullptr;
    }
    if (source < 0 || source > 2) {
        hupai::binding::set_invalid_hand("the source seat must be 0..2");
        return nullptr;
    }
    if (seats < 0 || seats > 7) {
        hupai::binding::set_invalid_hand("seats must be a mask of seats 0..2");
        return nullptr;
    }
    thread_local std::array<Query, 3> queries;  // reused: their group vectors keep their room
    if (!read_queries(args[0], args[1], int(seats), int(card), int(source), drawn != 0, options, true, queries))
        return nullptr;
    int wins = 0;
    bool failed = false;
    Py_BEGIN_ALLOW_THREADS
    try {
        for (int seat = 0; seat < 3; ++seat)
            if ((seats >> seat & 1) && splits_at_all(queries[seat]) && best_layout(queries[seat]).found)
                wins |= 1 << seat;
    } catch (const std::bad_alloc&) {
        failed = true;
    }
    Py_END_ALLOW_THREADS
    if (failed) return PyErr_NoMemory();
    return PyLong_FromLong(wins);
}

// Bits of a seat's options on an offered card (zipai_offer): what the flow's _offer_options offers, by kind.
constexpr int kOfferLiu = 1, kOfferWai = 2, kOfferPiao = 4, kOfferPung = 8, kOfferWin = 16, kOfferChow = 32;
constexpr int kChowSlots = 4;     // the runs holding a card (at most four)
constexpr int kChowSpecBytes = 6; // per slot: low, high, the locks' three bytes (little end first), the menzi bit
constexpr int kNoChow = 255;      // an empty slot's low card; a slot's menzi byte for no menzi bit

struct ChowSlot {
    int low = kNoChow, high = kNoChow;
    std::uint32_t locks = 0;
    std::uint64_t menzi = 0;  // the menzi-ban bit of (low, high, card), 0 for none
};

// WH-18: after giving up `a` and `b` from the hand (and locking `locks` more cards), a card is left to discard.
bool keeps_discard(const Counts& hand, std::uint32_t locked, int a, int b) {
    int held = 0;
    for (int kind = 0; kind < kKinds; ++kind) held += hand[kind] != 0;
    if (held - 2 > __builtin_popcount(locked)) return true;  // more held kinds than the locks and the two taken
    for (int kind = 0; kind < kKinds; ++kind)
        if (hand[kind] && !(locked >> kind & 1) && hand[kind] > (a == kind) + (b == kind)) return true;
    return false;
}

// Three non-negative ints below 2**bits from a sequence of three (the table's per-seat masks).
bool read_masks(PyObject* value, const char* name, int bits, std::uint64_t (&out)[3]) {
    PyObject* fast = fast_sequence(value, name, 3);
    if (fast == nullptr) return false;
    bool ok = true;
    for (int seat = 0; ok && seat < 3; ++seat) {
        long long mask = 0;
        ok = hupai::binding::read_int(PySequence_Fast_GET_ITEM(fast, seat), name, 0, (1LL << bits) - 1, mask);
        out[seat] = std::uint64_t(mask);
    }
    Py_DECREF(fast);
    return ok;
}

// zipai_offer(hands, declared, card, source, drawn, dead, chi_ban, menzi_ban, locked, chows, options, wins) -> int:
// every option of every seat on an offered card (WH-14, WH-15, WH-18, WH-22, WH-27, WH-32), 16 bits a seat at
// 16 * seat: kOfferLiu .. kOfferWin, and kOfferChow << i for the i-th slot of the card's chows. `chows` is the
// flow's table of each card's runs (20 cards x 4 slots x 6 bytes); wins (WH-32) are searched only if `wins`.
// A card's chow slots from the flow's table of runs (`spec`: 480 bytes, checked to be bytes of that size); false
// with InvalidHand set for a slot that is not two cards, a 20-bit lock mask and a menzi bit.
bool read_chow_slots(PyObject* spec_arg, int card, ChowSlot (&slots)[kChowSlots]) {
    const auto* spec = reinterpret_cast<const std::uint8_t*>(PyBytes_AS_STRING(spec_arg)) +
                       card * kChowSlots * kChowSpecBytes;
    for (int i = 0; i < kChowSlots; ++i, spec += kChowSpecBytes) {
        slots[i] = ChowSlot{};
        if (spec[0] == kNoChow) continue;
        if (spec[0] >= kKinds || spec[1] >= kKinds || spec[4] > 0x0f || (spec[5] != kNoChow && spec[5] >= 62)) {
            hupai::binding::set_invalid_hand("chows: a slot holds two cards, a 20-bit lock mask and a menzi bit");
            return false;
        }
        slots[i].low = spec[0];
        slots[i].high = spec[1];
        slots[i].locks = std::uint32_t(spec[2]) | std::uint32_t(spec[3]) << 8 | std::uint32_t(spec[4]) << 16;
        slots[i].menzi = spec[5] == kNoChow ? 0 : std::uint64_t{1} << spec[5];
    }
    return true;
}

// The per-seat masks and the run table an offer scan reads, as zipai_offer and zipai_offer_run take them.
struct OfferMasks {
    std::uint64_t chi_ban[3], menzi_ban[3], locked[3];
};

// Every asked seat's options on `card` (queries read and checked for it): zipai_offer's scan. Runs without the GIL.
long long scan_offer(const std::array<Query, 3>& queries, int asked, int card, int source, bool drawn,
                     const ChowSlot (&slots)[kChowSlots], const OfferMasks& masks, bool search) {
    long long out = 0;
    const int chower = (source + 1) % 3;
    for (int seat = 0; seat < 3; ++seat) {
        if (!(asked >> seat & 1)) continue;
        const Query& query = queries[seat];
        const Counts& hand = query.hand;
        const int held = hand[card];
        const bool own = drawn && seat == source;
        const auto locked = std::uint32_t(masks.locked[seat]);
        int bits = 0;
        if (own) {  // its own 歪 or 碰 of the card
            bool wai = false, peng = false;
            for (const Declared& group : query.declared) {
                if (group.kinds[0] != card) continue;
                wai = wai || group.type == kWai;
                peng = peng || group.type == kPeng;
            }
            if (held == 3 || wai) bits |= kOfferLiu;
            if (held >= 2 && keeps_discard(hand, locked, card, card)) bits |= kOfferWai;
            if (peng) bits |= kOfferPiao;
        } else if (held >= 2) {
            if (held == 3) bits |= kOfferPiao;
            if (keeps_discard(hand, locked, card, card)) bits |= kOfferPung;
        }
        if ((own || seat == chower) && !(masks.chi_ban[seat] >> card & 1)) {
            for (int i = 0; i < kChowSlots; ++i) {
                const ChowSlot& slot = slots[i];
                if (slot.low == kNoChow || !(hand[slot.low] && hand[slot.high]) || (masks.menzi_ban[seat] & slot.menzi))
                    continue;
                if (keeps_discard(hand, locked | slot.locks, slot.low, slot.high)) bits |= kOfferChow << i;
            }
        }
        if (search && splits_at_all(query) && best_layout(query).found) bits |= kOfferWin;
        out |= (long long)bits << (16 * seat);
    }
    return out;
}

// The arguments zipai_offer and zipai_offer_run share after the hands and groups: card, source, drawn, dead, the
// three masks, the run table and the options (args[2..10]); false with the error set.
bool read_offer_args(PyObject* const* args, long long& card, long long& source, int& drawn, long long& dead,
                     OfferMasks& masks, Options& options) {
    if (!hupai::binding::read_int(args[2], "card", 0, kKinds - 1, card) ||
        !hupai::binding::read_int(args[3], "source", 0, 2, source))
        return false;
    drawn = PyObject_IsTrue(args[4]);
    if (drawn < 0 || !hupai::binding::read_int(args[5], "dead", 0, 7, dead)) return false;
    if (!read_masks(args[6], "chi_ban", kKinds, masks.chi_ban) ||
        !read_masks(args[7], "menzi_ban", 62, masks.menzi_ban) || !read_masks(args[8], "locked", kKinds, masks.locked))
        return false;
    if (!PyBytes_Check(args[9]) || PyBytes_GET_SIZE(args[9]) != kKinds * kChowSlots * kChowSpecBytes) {
        PyErr_SetString(PyExc_TypeError, "chows must be the flow's table of runs: 480 bytes");
        return false;
    }
    return read_options_raw(args[10], options);
}

// The seats asked about an offered card: not 死手 (WH-27), and not a discard's discarder.
int asked_seats(bool drawn, int source, long long dead) { return (drawn ? 7 : 7 ^ (1 << source)) & ~int(dead); }

// zipai_offer(hands, declared, card, source, drawn, dead, chi_ban, menzi_ban, locked, chows, options, wins) -> int:
// every option of every seat on an offered card (WH-14, WH-15, WH-18, WH-22, WH-27, WH-32), 16 bits a seat at
// 16 * seat: kOfferLiu .. kOfferWin, and kOfferChow << i for the i-th slot of the card's chows. `chows` is the
// flow's table of each card's runs (20 cards x 4 slots x 6 bytes); wins (WH-32) are searched only if `wins`.
PyObject* zipai_offer(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 12) {
        PyErr_Format(PyExc_TypeError,
                     "zipai_offer expects 12 arguments (hands, declared, card, source, drawn, dead, chi_ban, "
                     "menzi_ban, locked, chows, options, wins), got %zd", nargs);
        return nullptr;
    }
    long long card = 0, source = 0, dead = 0;
    int drawn = 0;
    OfferMasks masks;
    Options options;
    if (!read_offer_args(args, card, source, drawn, dead, masks, options)) return nullptr;
    ChowSlot slots[kChowSlots];
    if (!read_chow_slots(args[9], int(card), slots)) return nullptr;
    const int search = PyObject_IsTrue(args[11]);
    if (search < 0) return nullptr;
    const int asked = asked_seats(drawn != 0, int(source), dead);
    thread_local std::array<Query, 3> queries;  // reused: their group vectors keep their room
    if (!read_queries(args[0], args[1], asked, int(card), int(source), drawn != 0, options, search != 0, queries))
        return nullptr;
    long long out = 0;
    bool failed = false;
    Py_BEGIN_ALLOW_THREADS
    try {
        out = scan_offer(queries, asked, int(card), int(source), drawn != 0, slots, masks, search != 0);
    } catch (const std::bad_alloc&) {
        failed = true;
    }
    Py_END_ALLOW_THREADS
    if (failed) return PyErr_NoMemory();
    return PyLong_FromLongLong(out);
}

constexpr int kPileCapacity = 80;  // hupai.game.state.zipai.PILE_CAPACITY: a seat's pile buffer

// zipai_offer_run(hands, declared, card, source, drawn, dead, chi_ban, menzi_ban, locked, chows, options, tiles,
// head, piles, pile_sizes, unclaimed) -> (bits, card, source, drawn, head): zipai_offer (wins searched) of the
// offered card (not scanned if `unclaimed`: the seats asked about it passed), and while nobody may do anything with
// it (the "eligible" window's unclaimed card, WH-14, WH-15), the card put on
// its source's pile and the next seat's turn-up (tiles[head], head moving on) offered in turn. Returns the first
// offer somebody may answer (its bits, never 0), or bits -1 when a turn-up was due and the stock was empty (黄庄,
// WH-20; card -1, source the last card's source). Every card is scanned (and every query checked) before a pile is
// written: the piles (three bytearrays of kPileCapacity) and pile_sizes (a bytearray of three) are the only writes.
PyObject* zipai_offer_run(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
    if (nargs != 16) {
        PyErr_Format(PyExc_TypeError,
                     "zipai_offer_run expects 16 arguments (hands, declared, card, source, drawn, dead, chi_ban, "
                     "menzi_ban, locked, chows, options, tiles, head, piles, pile_sizes, unclaimed), got %zd", nargs);
        return nullptr;
    }
    long long card = 0, source = 0, dead = 0, head = 0;
    int drawn = 0;
    OfferMasks masks;
    Options options;
    if (!read_offer_args(args, card, source, drawn, dead, masks, options)) return nullptr;
    PyObject* tiles_arg = args[11];
    if (!PyBytes_Check(tiles_arg)) {
        PyErr_SetString(PyExc_TypeError, "tiles must be the wall's bytes");
        return nullptr;
    }
    const auto* tiles = reinterpret_cast<const std::uint8_t*>(PyBytes_AS_STRING(tiles_arg));
    const Py_ssize_t count = PyBytes_GET_SIZE(tiles_arg);
    if (!hupai::binding::read_int(args[12], "head", 0, count, head)) return nullptr;
    PyObject* piles_arg = args[13];
    PyObject* sizes_arg = args[14];
    if (!PyList_CheckExact(piles_arg) || PyList_GET_SIZE(piles_arg) != 3 || !PyByteArray_CheckExact(sizes_arg) ||
        PyByteArray_GET_SIZE(sizes_arg) != 3) {
        PyErr_SetString(PyExc_TypeError, "piles must be a list of 3 bytearrays and pile_sizes a bytearray of 3");
        return nullptr;
    }
    std::uint8_t* piles[3];
    for (int seat = 0; seat < 3; ++seat) {
        PyObject* pile = PyList_GET_ITEM(piles_arg, seat);
        if (!PyByteArray_CheckExact(pile) || PyByteArray_GET_SIZE(pile) != kPileCapacity) {
            PyErr_SetString(PyExc_TypeError, "piles must be a list of 3 bytearrays of 80 cards");
            return nullptr;
        }
        piles[seat] = reinterpret_cast<std::uint8_t*>(PyByteArray_AS_STRING(pile));
    }
    const int unclaimed = PyObject_IsTrue(args[15]);
    if (unclaimed < 0) return nullptr;
    auto* sizes = reinterpret_cast<std::uint8_t*>(PyByteArray_AS_STRING(sizes_arg));
    std::uint8_t size[3] = {sizes[0], sizes[1], sizes[2]};  // copied once: the writes below check against these
    // Every card is read, checked and scanned first; the piled cards kept here and written at the end.
    std::uint8_t piled[3][kPileCapacity];
    int piled_count[3] = {0, 0, 0};
    // The hands and groups are the same for every card of the run (an unclaimed card changes neither): read once
    // for every seat a card may ask, checked again per card (the win search's query holds the card).
    thread_local std::array<Query, 3> queries;
    if (!read_queries(args[0], args[1], 7 & ~int(dead), int(card), int(source), drawn != 0, options, false, queries))
        return nullptr;
    long long bits = 0;
    bool scan = !unclaimed;
    // Each seat's query is checked in full the first time a card asks it; after that only the card changes, and
    // with it only the card's own count can fail (the same message check() gives).
    bool checked[3] = {false, false, false};
    Counts totals[3];
    while (true) {
        if (scan) {
            ChowSlot slots[kChowSlots];
            if (!read_chow_slots(args[9], int(card), slots)) return nullptr;
            const int asked = asked_seats(drawn != 0, int(source), dead);
            for (int seat = 0; seat < 3; ++seat) {
                if (!(asked >> seat & 1)) continue;
                Query& query = queries[seat];
                query.win_card = int(card);
                query.source = drawn && seat == source ? kSelfDrawn : kFromOther;
                query.options = options;
                if (!checked[seat]) {
                    const std::string problem = check(query, false);
                    if (!problem.empty()) {
                        hupai::binding::set_invalid_hand(problem);
                        return nullptr;
                    }
                    totals[seat] = with_declared(query);
                    checked[seat] = true;
                } else if (totals[seat][card] + 1 > kCopies) {
                    hupai::binding::set_invalid_hand(std::to_string(totals[seat][card] + 1) + " copies of card " +
                                                     std::to_string(card) +
                                                     " in hand, groups and winning card: there are only 4");
                    return nullptr;
                }
            }
            // (the GIL held: a scan is a few microseconds, and the piles' buffers must stay as they were read)
            try {
                bits = scan_offer(queries, asked, int(card), int(source), drawn != 0, slots, masks, true);
            } catch (const std::bad_alloc&) {
                return PyErr_NoMemory();
            }
            if (bits) break;
        }
        scan = true;
        // nobody may do anything: the card joins its source's pile, and its 下家 turns up the next card
        if (size[source] + piled_count[source] >= kPileCapacity) {
            hupai::binding::set_invalid_hand("a pile is full: a zipai pile holds at most 80 cards");
            return nullptr;
        }
        piled[source][piled_count[source]++] = std::uint8_t(card);
        source = (source + 1) % 3;
        if (head >= count) {  // 黄庄
            bits = -1;
            card = -1;
            break;
        }
        card = tiles[head++];
        drawn = 1;
        if (card >= kKinds) {
            hupai::binding::set_invalid_hand("the wall holds cards 0..19");
            return nullptr;
        }
    }
    for (int seat = 0; seat < 3; ++seat) {
        if (!piled_count[seat]) continue;
        std::memcpy(piles[seat] + size[seat], piled[seat], std::size_t(piled_count[seat]));
        sizes[seat] = std::uint8_t(size[seat] + piled_count[seat]);
    }
    if (bits == -1) source = (source + 2) % 3;  // the last card's source (no turn-up followed it)
    PyObject* out = PyTuple_New(5);
    if (out == nullptr) return nullptr;
    const long long values[5] = {bits, card, source, drawn, head};
    for (int i = 0; i < 5; ++i) {
        PyObject* value = PyLong_FromLongLong(values[i]);
        if (value == nullptr) {
            Py_DECREF(out);
            return nullptr;
        }
        PyTuple_SET_ITEM(out, i, value);
    }
    return out;
}

PyMethodDef kZipaiMethods[] = {
    {"zipai_offer_wins", hupai::binding::as_method(zipai_offer_wins), METH_FASTCALL,
     "zipai_offer_wins($module, hands, declared, card, source, drawn, seats, options, /)\n--\n\n"
     "A mask of the seats in `seats` whose hand wins with the offered card (self-drawn for the source seat of a\n"
     "drawn card, else from another player): zipai_best(...)[1] is not None for each, in one call. hands: three\n"
     "20-count buffers (bytearrays or uint8 arrays); declared: each seat's (type, a, b, c, external) groups.\n"
     "Positional arguments only."},
    {"zipai_offer", hupai::binding::as_method(zipai_offer), METH_FASTCALL,
     "zipai_offer($module, hands, declared, card, source, drawn, dead, chi_ban, menzi_ban, locked, chows, options, wins, /)\n"
     "--\n\n"
     "Every option of every seat on an offered card (the Wai Huzi flow's _offer_options), 16 bits a seat at\n"
     "16 * seat: 1 溜, 2 歪, 4 飘, 8 碰, 16 胡 (searched only if `wins`), 32 << i the i-th of the card's chows in\n"
     "`chows` (20 cards x 4 slots of low, high, 3 lock bytes, menzi bit or 255). dead: the 死手 seat mask;\n"
     "chi_ban, menzi_ban, locked: per-seat masks. Positional arguments only."},
    {"zipai_offer_run", hupai::binding::as_method(zipai_offer_run), METH_FASTCALL,
     "zipai_offer_run($module, hands, declared, card, source, drawn, dead, chi_ban, menzi_ban, locked, chows, options, tiles, head, piles, pile_sizes, unclaimed, /)\n"
     "--\n\n"
     "zipai_offer (wins searched) of the offered card (none if `unclaimed`: its seats passed), and while nobody\n"
     "may answer it, the card put on its\n"
     "source's pile and the next seat's turn-up (tiles[head]) offered in turn: (bits, card, source, drawn, head)\n"
     "of the first offer somebody may answer, or bits -1 when the stock ran out (card -1, source the last card's).\n"
     "Writes only piles (3 bytearrays of 80) and pile_sizes (a bytearray of 3), after every check. Positional\n"
     "arguments only."},
    {nullptr, nullptr, 0, nullptr},
};

}  // namespace

void register_zipai(py::module_& m) {
    hupai::binding::add_functions(m, kZipaiMethods);
    m.def(
        "zipai_layouts",
        [](const py::array_t<std::uint8_t, py::array::c_style>& hand, const std::vector<DeclaredTuple>& declared,
           int win_card, int source, const OptionsTuple& options) {
            const Query query = make_query(hand, declared, win_card, source, options);
            require(query, false);
            py::list out;
            for (const Layout& layout : layouts(query)) out.append(layout_tuple(layout, query.declared));
            return out;
        },
        py::arg("hand"), py::arg("declared"), py::arg("win_card"), py::arg("source"), py::arg("options"),
        "Every layout of hand + winning card as (parts, xi, score, mingtang, huohuo_doublings, inner_yuan,\n"
        "outer_yuan); parts are (type, kinds, xi): the declared groups, the hand's groups, the 2-card unit last (see hupai.zipai.splits).");

    m.def(
        "zipai_best",
        [](const py::array_t<std::uint8_t, py::array::c_style>& hand, const std::vector<DeclaredTuple>& declared,
           int win_card, int source, const OptionsTuple& options) {
            const Query query = make_query(hand, declared, win_card, source, options);
            require(query, false);
            return best_tuple(best_layout(query), query.declared);
        },
        py::arg("hand"), py::arg("declared"), py::arg("win_card"), py::arg("source"), py::arg("options"),
        "(max_xi, best layout or None): the highest-scoring layout reaching min_huxi (see hupai.zipai.best_split).");

    m.def(
        "zipai_ready",
        [](const py::array_t<std::uint8_t, py::array::c_style>& hand, const std::vector<DeclaredTuple>& declared,
           const OptionsTuple& options) {
            const Query query = make_query(hand, declared, -1, kNoWinCard, options);
            require(query, true);
            py::gil_scoped_release release;
            return ready(query);
        },
        py::arg("hand"), py::arg("declared"), py::arg("options"),
        "Whether some card wins the 3m+1 hand, self-drawn or from another player (zipai_waits non-empty).");

    m.def(
        "zipai_waits",
        [](const py::array_t<std::uint8_t, py::array::c_style>& hand, const std::vector<DeclaredTuple>& declared,
           const OptionsTuple& options) {
            const Query query = make_query(hand, declared, -1, kNoWinCard, options);
            require(query, true);
            py::list out;
            for (const Wait& wait : waits(query))
                out.append(py::make_tuple(wait.card, best_tuple(wait.self_drawn, query.declared),
                                           best_tuple(wait.from_other, query.declared)));
            return out;
        },
        py::arg("hand"), py::arg("declared"), py::arg("options"),
        "(card, self-drawn (max_xi, layout|None), from another (max_xi, layout|None)) for every winning card.");

    m.def(
        "zipai_best_batch",
        [](const py::array_t<std::uint8_t>& counts, const std::vector<DeclaredTuple>& declared,
           const py::array_t<std::int8_t, py::array::c_style>& win_cards, int source, const OptionsTuple& options,
           int threads) {
            if (counts.ndim() != 2 || counts.shape(1) != kKinds) invalid("counts must have shape (N, 20)");
            if (!(counts.flags() & py::array::c_style)) invalid("counts must be C-contiguous");
            const py::ssize_t rows = counts.shape(0);
            if (win_cards.ndim() != 1 || win_cards.shape(0) != rows)
                invalid("win_cards must hold one card (or -1) per row");
            if (threads < 1 || threads > 256) invalid("threads must be between 1 and 256");
            if (source != kSelfDrawn && source != kFromOther)
                invalid("source must be 1 (self-drawn) or 2 (from another player)");
            Query shared;
            shared.declared = read_declared(declared);
            shared.options = read_options(options);
            py::array_t<std::int16_t> xi(rows), max_xi(rows);
            py::array_t<std::int64_t> score(rows);
            const BatchOut out{xi.mutable_data(), score.mutable_data(), max_xi.mutable_data()};
            const std::uint8_t* data = counts.data();
            const std::int8_t* wins = win_cards.data();
            const int workers = int(std::max<py::ssize_t>(1, std::min<py::ssize_t>(threads, rows)));
            std::vector<long long> bad_row(workers, -1);
            std::vector<std::string> bad_reason(workers);
            auto work = [&](int worker) {
                Query query = shared;  // each worker its own copy: the rows differ in hand and winning card
                const long long begin = rows * worker / workers, end = rows * (worker + 1) / workers;
                for (long long row = begin; row < end; ++row) {
                    // Copy the row before checking it: another thread may write the array meanwhile, and the
                    // check and the search must see the same cards.
                    std::memcpy(query.hand.data(), data + row * kKinds, kKinds);
                    query.win_card = wins[row];
                    query.source = wins[row] < 0 ? kNoWinCard : Source(source);
                    std::string problem = check(query, false);
                    if (!problem.empty()) {
                        bad_row[worker] = row;
                        bad_reason[worker] = std::move(problem);
                        return;
                    }
                    const Best best = best_layout(query);
                    out.xi[row] = std::int16_t(best.found ? best.layout.xi : -1);
                    out.score[row] = best.found ? std::int64_t(best.layout.score) : 0;
                    out.max_xi[row] = std::int16_t(best.max_xi);
                }
            };
            {
                py::gil_scoped_release release;  // holding it would stall other threads and Python's collector
                hupai::binding::run_workers(workers, work);
            }
            for (int w = 0; w < workers; ++w)
                if (bad_row[w] >= 0) invalid("row " + std::to_string(bad_row[w]) + ": " + bad_reason[w]);
            return py::make_tuple(xi, score, max_xi);
        },
        py::arg("counts"), py::arg("declared"), py::arg("win_cards"), py::arg("source"), py::arg("options"),
        py::arg("threads"),
        "Per row of held cards (uint8[N, 20]) with its winning card (int8[N], -1 = none): (xi, score, max_xi)\n"
        "arrays of the best layout (see hupai.zipai.best_split_batch). Releases the GIL.");
    m.def(
        "zipai_advise",
        [](const py::handle& hand, const std::vector<DeclaredTuple>& declared, const py::handle& unseen,
           long long forbidden, const OptionsTuple& options, const std::vector<ClaimTuple>& claims) {
            AdviceQuery advice = read_advice(hand, declared, unseen, forbidden, options, claims);
            const AdviceResult result = run_advice(advice);
            py::array_t<std::int64_t> judged({kKinds + 1, 4});
            std::int64_t* rows = judged.mutable_data();
            std::fill(rows, rows + (kKinds + 1) * 4, 0);
            for (int kind = 0; kind < kKinds; ++kind) {
                if (!(result.candidates >> kind & 1)) continue;
                rows[kind * 4] = 1;
                write_judgement(rows + kind * 4 + 1, result.discards[kind]);
            }
            if (result.at_rest) {
                rows[kKinds * 4] = 1;
                write_judgement(rows + kKinds * 4 + 1, result.rest);
            }
            py::array_t<std::int64_t> verdicts({py::ssize_t(result.claims.size()), py::ssize_t(8)});
            std::int64_t* out = verdicts.mutable_data();
            for (const ClaimJudgement& claim : result.claims) {
                out[0] = claim.verdict;
                write_judgement(out + 1, claim.before);
                out[4] = claim.judged_after ? 1 : 0;
                write_judgement(out + 5, claim.after);
                out += 8;
            }
            return py::make_tuple(judged, verdicts, result.best_discard);
        },
        py::arg("hand"), py::arg("declared"), py::arg("unseen"), py::arg("forbidden"), py::arg("options"),
        py::arg("claims"),
        "The Wai Huzi advice's judgements (see hupai.rules.waihuzi.advice): (judged int64[21, 4], claims\n"
        "int64[K, 8], best discard). A hand in a discard state (3m+2 cards) fills row k = (1, wait value,\n"
        "closeness, 息) for each card k it may discard; a hand at rest (3m+1) fills row 20 with its own judgement\n"
        "and one claims row per offered (kind, card, low, high): (verdict: 1 take, 0 decline, -1 the hand lacks\n"
        "the cards, -2 no run, -3 a fifth copy; before ×3; 1 if judged after; after ×3). Releases the GIL.");

    m.def(
        "zipai_advise_discard",
        [](const py::handle& hand, const std::vector<DeclaredTuple>& declared, const py::handle& unseen,
           long long forbidden, const OptionsTuple& options) {
            AdviceQuery advice = read_advice(hand, declared, unseen, forbidden, options, {});
            const AdviceResult result = run_advice(advice);
            return result.at_rest ? -2 : result.best_discard;
        },
        py::arg("hand"), py::arg("declared"), py::arg("unseen"), py::arg("forbidden"), py::arg("options"),
        "zipai_advise's best discard alone, without its arrays: the card (ties to the lower), -1 if every card is\n"
        "forbidden, -2 if the hand is at rest (3m+1 cards) rather than in a discard state. Releases the GIL.");

    m.def(
        "zipai_advise_claims",
        [](const py::handle& hand, const std::vector<DeclaredTuple>& declared, const py::handle& unseen,
           long long forbidden, const OptionsTuple& options, const std::vector<ClaimTuple>& claims) {
            AdviceQuery advice = read_advice(hand, declared, unseen, forbidden, options, claims);
            const AdviceResult result = run_advice(advice);
            py::list verdicts(result.claims.size());
            for (std::size_t i = 0; i < result.claims.size(); ++i) verdicts[i] = int(result.claims[i].verdict);
            return verdicts;
        },
        py::arg("hand"), py::arg("declared"), py::arg("unseen"), py::arg("forbidden"), py::arg("options"),
        py::arg("claims"),
        "zipai_advise's claim verdicts alone, without its arrays: one int per claim (1 take, 0 decline, -1 the\n"
        "hand lacks the cards, -2 no run, -3 a fifth copy). Releases the GIL.");

    m.def(
        "zipai_suit_shape",
        [](const py::handle& values) {
            const std::string raw = py::isinstance<py::bytes>(values) ? std::string(py::reinterpret_borrow<py::bytes>(values)) : std::string();
            if (raw.size() != std::size_t(kSizeKinds)) invalid("a size's counts are 10 bytes");
            std::array<std::uint8_t, kSizeKinds> counts{};
            std::memcpy(counts.data(), raw.data(), kSizeKinds);
            for (std::uint8_t count : counts)
                if (count > kCopies) invalid("a size's counts are 10 bytes of 0..4");
            const SuitShape found = suit_shape(counts.data());
            return py::make_tuple(found.groups, found.partials, found.xi);
        },
        py::arg("values"),
        "(groups, partials, 息) of one size's best grouping (10 bytes of counts; see hupai.rules.waihuzi.advice).");
}
