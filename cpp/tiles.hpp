// Tile kinds, counts and masks shared by the whole core (DESIGN §2).
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace hupai {

constexpr int kNumKinds = 34;
constexpr int kSuitKinds = 9;
constexpr int kNumHonors = 7;
constexpr int kFirstHonor = 27;
constexpr int kMaxCopies = 4;
constexpr int kMaxConcealed = 14;  // a concealed part never holds more than 14 tiles (jokers included)
constexpr int kMaxJokers = 8;
constexpr int kMaxMelds = 4;

using KindMask = std::uint64_t;  // bit k = kind k
constexpr KindMask kAllKinds = (KindMask{1} << kNumKinds) - 1;

// Terminals and honors: 1m 9m 1p 9p 1s 9s and the seven honors (幺九 / 十三幺 kinds).
constexpr std::array<int, 13> kOrphans = {0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33};
constexpr KindMask orphan_mask() {
    KindMask mask = 0;
    for (int kind : kOrphans) mask |= KindMask{1} << kind;
    return mask;
}
constexpr KindMask kOrphanMask = orphan_mask();

// Winning forms (must match hupai.Forms).
enum Form : unsigned {
    kStandard = 1,
    kSevenPairs = 2,         // seven distinct pairs (a quad is one pair)
    kSevenPairsQuads = 4,    // seven pairs, a quad counts as two
    kThirteenOrphans = 8,
    kKnitted = 16,           // 不搭, general form
    kTerminalsHonors = 32,   // 幺九, no structure
};
constexpr unsigned kAllForms = 63;
constexpr unsigned kConcealedOnlyForms = kAllForms & ~unsigned{kStandard};

// Bad input from the caller; the bindings turn it into hupai.InvalidHand.
class InvalidHand : public std::invalid_argument {
  public:
    using std::invalid_argument::invalid_argument;
};

inline std::string kind_name(int kind) {
    static constexpr char kSuitLetters[] = "mpsz";
    return std::string(1, char('1' + kind % 9)) + kSuitLetters[kind / 9];
}

}  // namespace hupai
