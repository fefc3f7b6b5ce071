// Completeness, shanten and waits for every form, with jokers (DESIGN §3).
//
// The deficiency model: the cost of a hand is the fewest tiles it must still exchange to be complete in some
// allowed form, jokers filling missing tiles of the kinds they may stand for. Complete iff cost == 0;
// shanten = cost - 1. With unrestricted jokers cost = deficiency - jokers, where the deficiency (tiles missing
// from the natural tiles alone) comes from the precomputed tables.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tiles.hpp"

namespace hupai {

class Tables;

struct HandQuery {
    const std::uint8_t* counts = nullptr;  // 34 counts of natural concealed tiles
    int jokers = 0;
    int melds = 0;  // exposed melds set aside
    unsigned forms = kStandard;
    KindMask joker_kinds = kAllKinds;
};

// What a hand must look like for a call.
enum class SizeRule { kAny, kComplete /* 3n+2 */, kWaiting /* 3n+1 */ };

// 0 if the query is valid for the rule, else an error code that describe_error() explains. No allocation.
int check_query(const HandQuery& query, SizeRule rule);
std::string describe_error(const HandQuery& query, SizeRule rule, int code);
void require_valid(const HandQuery& query, SizeRule rule);  // throws InvalidHand

// The fewest tiles to exchange to complete the hand (0 = complete), minimised over the applicable forms.
// The query must be valid (check_query == 0).
int hand_cost(const HandQuery& query);
bool hand_complete(const HandQuery& query);  // hand_cost == 0, faster; the query must be valid and 3n+2

int shanten(const HandQuery& query);  // validates; -1 = complete
bool is_win(const HandQuery& query);  // validates; needs 3n+2 tiles
std::vector<int> waits(const HandQuery& query);  // validates; needs 3n+1 tiles

// For a complete-size (3n+2) hand: for every kind held, the shanten after discarding it and the kinds whose
// draw would then lower that shanten (bit k = kind k; a kind held four times after the discard is no draw).
// Kinds not held get shanten_after = 127 and no bits. Validates the query. `variant` 0 judges each discard's
// draws with StandardPartials (the portable way); 1 (the default) all of them in one pass where SIMD exists.
void discard_analysis(const HandQuery& query, std::int8_t* shanten_after, std::uint64_t* improving, int variant = 1);

// Rows of a numpy batch: counts[row * 34 ...]; jokers and melds per row, or (null) one value for all.
struct BatchRows {
    const std::uint8_t* counts = nullptr;
    const std::int32_t* jokers = nullptr;
    const std::int32_t* melds = nullptr;
    int joker_scalar = 0;
    int meld_scalar = 0;
    unsigned forms = kStandard;
    KindMask joker_kinds = kAllKinds;

    HandQuery row(long long index) const;
};

// Where a batch stops: the error code (describe_error explains it) and the row as it was read and checked.
struct BatchError {
    int code = 0;
    std::array<std::uint8_t, kNumKinds> counts{};
    int jokers = 0;
    int melds = 0;
};

// Batch kernels over rows [begin, end). They return -1, or the first invalid row with *error filled in; rows
// before it are filled in. Each row is copied before it is checked and used, so another thread writing into
// the caller's array (the GIL is released) can change answers but never what a checked row holds.
long long shanten_rows(const BatchRows& rows, long long begin, long long end, std::int8_t* out, BatchError* error);
long long is_win_rows(const BatchRows& rows, long long begin, long long end, bool* out, BatchError* error);

// Standard-form deficiency (no jokers counted): SIMD where the CPU has it. The variants (0 portable, 1 SSSE3,
// 2 AVX2; an unsupported one falls back to portable) are exposed so tests can check they agree.
int standard_deficiency(const std::uint8_t* counts, int melds_needed);
int standard_deficiency_variant(const std::uint8_t* counts, int melds_needed, int variant);

// The standard deficiency of hands that each differ from one base hand in a single group (a suit, or the
// honors): what discard_analysis asks for every draw after a discard. The other three groups' costs are
// combined once, when the base hand is given; each hand asked about then costs one table look-up and the last
// min-plus step, not four look-ups and three combines. Exactly standard_deficiency (min-plus combining is
// associative and commutative).
class StandardPartials {
  public:
    // `portable`: never the SIMD steps (for tests: both must agree).
    StandardPartials(const std::uint8_t* counts, int melds_needed, bool portable = false);
    // standard_deficiency(counts, melds_needed), for `counts` equal to the base hand outside `group` (0..2 the
    // suits, 3 the honors: kind / 9).
    int deficiency(const std::uint8_t* counts, int group) const;

  private:
    const Tables* tables_;
    int melds_needed_;
    bool simd_;
    // Per group: the tiles the other three groups miss for m melds (0..4), lane m without the pair and lane
    // 8 + m with it (the SIMD layout; the other lanes are padding).
    alignas(16) std::uint8_t rest_[4][16];
};

// The standard-form deficiency of every hand one discard and one draw away from a complete-size (3n+2) hand:
// after[k] for the hand less one k (k held), draw[k][d] for that hand plus one d (255 where it holds d four
// times already); the entries of kinds not held are left unwritten. Exactly standard_deficiency of each, from
// about a third of the table look-ups that asking StandardPartials per discard takes (what discard_analysis
// does with it). SIMD only: ask discard_draws_in_simd() first (the CPU has SSSE3); elsewhere it throws
// std::logic_error.
struct DiscardDraws {
    std::uint8_t after[kNumKinds];
    std::uint8_t draw[kNumKinds][kNumKinds];
};
bool discard_draws_in_simd();
void standard_discard_draws(const std::uint8_t* counts, int melds_needed, DiscardDraws& out);

}  // namespace hupai
