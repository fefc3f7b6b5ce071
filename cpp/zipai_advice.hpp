// Wai Huzi playing advice in the core: how good a hand at rest is, for every candidate discard and every offered
// claim at once (the judgement of hupai.rules.waihuzi.advice, which is now a thin caller of this).
//
// A hand at rest (3m+1 cards, WH-11) is judged by, in this order: the value of its waits (Σ over winning cards
// of unseen copies × the better score, self-drawn or from another), how close its shape is to a win (minus the
// cards it lacks, an estimate like mahjong's shanten), and its 息 (declared exactly, the hand's best grouping
// estimated). Plain C++, no Python (register_zipai.cpp binds it).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "zipai.hpp"

namespace hupai::zipai {

// Larger is better, compared field by field.
struct Judgement {
    std::int64_t wait_value = 0;  // Σ unseen copies × better score over the waits reaching min_huxi (0: none)
    int closeness = 0;            // minus the cards the shape lacks (−1: ready by shape)
    int xi = 0;                   // declared 息 + the best grouping's 息
};

bool operator<(const Judgement& a, const Judgement& b);
inline bool operator>(const Judgement& a, const Judgement& b) { return b < a; }

// One size's best grouping (10 counts): the most 2 × groups + partials, then the most 息, then the most groups
// (a pair or 门子 is a partial: one card from a group or the unit).
struct SuitShape {
    int groups = 0;
    int partials = 0;
    int xi = 0;
};
SuitShape suit_shape(const std::uint8_t* values);  // values[0..9], each 0..4

// (cards lacking, 息 of the grouping) for a hand that must still make `groups_needed` groups and the unit.
struct ShapeEstimate {
    int lacking = 0;
    int xi = 0;
};
ShapeEstimate shape(const Counts& hand, int groups_needed);

// Whether hand + win_card of a query (3m+2 cards, its declared groups aside) splits at all into 3-card groups and
// one 2-card unit: exact, from the shape table (best_layout finds nothing where this is false), so a cheap test
// before it. The query's 息 and min_huxi are not looked at.
bool splits_at_all(const Query& query);

// For a 3m+1 hand (win_card and source ignored): whether some card wins, self-drawn or from another player
// (waits() without the layouts: it stops at the first, and tries only the cards that split).
bool ready(const Query& query);

enum ClaimKind : std::uint8_t { kClaimPiao = 0, kClaimPeng = 1, kClaimChi = 2 };

struct Claim {
    ClaimKind kind = kClaimPeng;
    int card = 0;
    int low = -1, high = -1;  // the 门子 a 吃 uses (two held cards), -1 otherwise
};

// What a claim comes to: take it, decline it, or it cannot be made by this hand.
enum Verdict : std::int8_t {
    kDecline = 0,
    kTake = 1,
    kCannot = -1,      // the hand lacks the cards (a 吃 without the two held cards of its 门子)
    kNotARun = -2,     // a 吃's 门子 and card are no run
    kFifthCopy = -3,   // the offered card would be a fifth copy
};

struct ClaimJudgement {
    Verdict verdict = kDecline;
    Judgement before;          // the hand at rest as it is, the offered card seen
    bool judged_after = false; // false: taken or refused without judging the hand after
    Judgement after;           // the best hand at rest after the claim (and its discard, for 碰 and 吃)
};

// Everything the advice judges, for one hand. `hand` is in a discard state (3m+2 cards: rank every discard)
// or at rest (3m+1: judge it, and each offered claim). Check it with `check_advice` first.
struct AdviceQuery {
    Query query;            // hand, declared groups (at most six), options; win_card and source unused
    Counts unseen{};        // copies of each card the player has not seen, 0..4
    KindMask forbidden = 0; // cards it may not discard (锁牌, WH-26)
    std::vector<Claim> claims;  // only for a hand at rest
};

struct AdviceResult {
    KindMask candidates = 0;                  // discard state: the kinds it may discard
    std::array<Judgement, kKinds> discards{}; // ... and the hand each leaves (for the candidates)
    int best_discard = -1;                    // the best of them, ties to the lower card; -1 if none
    bool at_rest = false;                     // the hand was at rest (else in a discard state)
    Judgement rest;                           // at rest: the hand as it is
    std::vector<ClaimJudgement> claims;       // at rest: one per offered claim, in order
};

// The reason an advice query is malformed, or "" (hand, groups, unseen, claims' cards).
std::string check_advice(const AdviceQuery& advice);

// Judges a checked query. `query.query` is used as scratch (its hand and groups restored before returning);
// `out.claims` must hold one element per claim (no allocation here: the declared groups need room for one
// more, reserved by the caller).
void advise(AdviceQuery& advice, AdviceResult& out);

}  // namespace hupai::zipai
