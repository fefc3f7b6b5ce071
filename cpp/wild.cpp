// Exact group search with wild tiles under a per-kind room limit (see wild.hpp).
//
// A sweep over the kinds in order. At kind k the state is: runs started at k-2 still needing k (their third tile),
// runs started at k-1 needing k and k+1, jokers left, melds and pairs still to form. Every natural tile of kind k
// must go into those runs, runs starting at k, pungs or pairs of k; jokers fill the rest, at most room[k] of them.
// What is decided at kinds > k depends only on that state, so a state that failed once fails again: remembering
// the failures bounds the search by the number of states (a few thousand), however the jokers could be spread.
// The failures are bits in a per-thread buffer, cleared for each search: no allocation once it has grown.
#include "wild.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace hupai {
namespace {

class WildSearch {
  public:
    WildSearch(const KindCounts& counts, const KindCounts& room, int jokers, int sets, int pairs)
        : counts_(counts),
          room_(room),
          runs_dim_(sets + 1),
          jokers_dim_(jokers + 1),
          sets_dim_(sets + 1),
          pairs_dim_(pairs + 1),
          failed_(buffer()) {
        const std::size_t words =
            (std::size_t(kNumKinds) * runs_dim_ * runs_dim_ * jokers_dim_ * sets_dim_ * pairs_dim_ + 63) / 64;
        if (failed_.size() < words) failed_.resize(words);
        std::fill(failed_.begin(), failed_.begin() + std::ptrdiff_t(words), std::uint64_t{0});
    }

    // `third`: runs needing kind `kind` as their third tile; `second`: runs needing it as their second.
    bool fits(int kind, int third, int second, int jokers, int sets, int pairs) {
        if (kind == kNumKinds) return third == 0 && second == 0 && jokers == 0 && sets == 0 && pairs == 0;
        const std::size_t state = index(kind, third, second, jokers, sets, pairs);
        if (failed_[state / 64] >> (state % 64) & 1) return false;
        const int natural = counts_[kind];
        const int wild_limit = std::min<int>(room_[kind], jokers);
        const bool run_may_start = kind < kFirstHonor && kind % kSuitKinds <= kSuitKinds - 3;
        const int pending = third + second;
        // Prefer the fewest jokers at this kind first: most questions are answered by the natural tiles.
        for (int pungs = 0; pungs <= sets; ++pungs) {
            for (int pair_count = 0; pair_count <= pairs; ++pair_count) {
                const int max_starts = run_may_start ? sets - pungs : 0;
                for (int starts = 0; starts <= max_starts; ++starts) {
                    const int used = pending + starts + 3 * pungs + 2 * pair_count;
                    const int wild = used - natural;
                    if (wild < 0) continue;
                    if (wild > wild_limit) break;  // more starts only need more jokers
                    if (fits(kind + 1, second, starts, jokers - wild, sets - pungs - starts, pairs - pair_count))
                        return true;
                }
            }
        }
        failed_[state / 64] |= std::uint64_t{1} << (state % 64);
        return false;
    }

  private:
    // One buffer per thread (searches do not nest), grown to the largest search made so far.
    static std::vector<std::uint64_t>& buffer() {
        thread_local std::vector<std::uint64_t> failed;
        return failed;
    }

    std::size_t index(int kind, int third, int second, int jokers, int sets, int pairs) const {
        std::size_t at = std::size_t(kind);
        at = at * runs_dim_ + std::size_t(third);
        at = at * runs_dim_ + std::size_t(second);
        at = at * jokers_dim_ + std::size_t(jokers);
        at = at * sets_dim_ + std::size_t(sets);
        return at * pairs_dim_ + std::size_t(pairs);
    }

    const KindCounts& counts_;
    const KindCounts& room_;
    std::size_t runs_dim_, jokers_dim_, sets_dim_, pairs_dim_;
    std::vector<std::uint64_t>& failed_;
};

}  // namespace

bool fits_with_jokers(const KindCounts& counts, int jokers, int sets, int pairs, const KindCounts& room) {
    if (sets < 0 || sets > kMaxMelds) throw InvalidHand("sets must be 0.." + std::to_string(kMaxMelds) +
                                                        ", got " + std::to_string(sets));
    if (pairs < 0 || pairs > kMaxWildPairs)
        throw InvalidHand("pairs must be 0.." + std::to_string(kMaxWildPairs) + ", got " + std::to_string(pairs));
    if (3 * sets + 2 * pairs > kMaxConcealed)
        throw InvalidHand(std::to_string(sets) + " sets and " + std::to_string(pairs) + " pairs need more than " +
                          std::to_string(kMaxConcealed) + " tiles");
    if (jokers < 0 || jokers > kMaxConcealed)
        throw InvalidHand("jokers must be 0.." + std::to_string(kMaxConcealed) + ", got " + std::to_string(jokers));
    int tiles = jokers;
    for (int kind = 0; kind < kNumKinds; ++kind) {
        if (counts[kind] > kMaxCopies)
            throw InvalidHand(std::to_string(int(counts[kind])) + " tiles of " + kind_name(kind) +
                              ": there are only four");
        tiles += counts[kind];
    }
    // Every tile is used: the count decides most questions before any search.
    if (tiles != 3 * sets + 2 * pairs) return false;
    WildSearch search(counts, room, jokers, sets, pairs);
    return search.fits(0, 0, 0, jokers, sets, pairs);
}

}  // namespace hupai
