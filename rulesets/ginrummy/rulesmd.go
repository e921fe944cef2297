package ginrummy

// rulesMarkdown is the "how to play" page players read in the client (Info.Rules), written from
// the rules GR-1 to GR-11.
const rulesMarkdown = `# Gin Rummy

**Goal.** Arrange your cards into melds and bring the loose cards (your *deadwood*) down, then
knock, or go gin with no deadwood at all. Hands are played until a player reaches the target
score (100 by default).

## The deal
Two players, one 52-card deck. Each gets 10 cards. The next card is turned face up to start the
discard pile (the *upcard*); the rest is the *stock*. The dealer changes every hand, and the other
player acts first.

## Melds and deadwood
- A **set** is three or four cards of one rank (7♠ 7♥ 7♦).
- A **run** is three or more cards in a row of one suit (4♥ 5♥ 6♥). The ace is low only: A-2-3
  is a run, Q-K-A is not.
- A card counts in one meld only. Cards in no meld are **deadwood**: an ace counts 1, 2 to 10 their
  number, J, Q and K 10. The table always arranges your cards for the least deadwood; the panel
  *Your deadwood* shows it.

## A turn
- **First turn**: the player who did not deal may take the upcard or pass; if they pass, the
  dealer may take it or pass; if both pass, the first player draws from the stock.
- Then on each turn: **draw** one card, from the stock (*Draw from the stock*) or the top of the
  discard pile (*Take ...*), then **discard** one card face up. A card you just took from the
  discard pile cannot be discarded in the same turn. Both players know a card taken from the
  discard pile: it shows by the player's hand (*Taken from the discard pile*) while they hold it.
- When a player discards and only two cards are left in the stock, the hand is **void**: nobody
  scores and the same dealer deals again.

## Knocking
After drawing, if your deadwood after the discard is 10 or less (the room may set a lower limit),
you may **knock**: choose the card to discard face down. Both hands are then laid out in melds.
With no deadwood at all it is **gin**.

After a knock (not after gin) the other player may **lay off** deadwood cards onto the knocker's
melds: a fourth card to a set, or cards at either end of a run (choose the cards and the meld),
then press *Done laying off*.

## Scoring a hand
- The knocker has less deadwood: the knocker scores the difference.
- The other player has as much or less deadwood (an **undercut**): they score the difference plus
  25.
- **Gin**: 25 plus the other player's deadwood (no laying off).
- **Big gin** (if the room allows it): when all eleven cards make melds after you draw, press
  *Big gin* for 31 plus the other player's deadwood.

## The end of the game
When a player reaches the target, the game ends. The winner gets 100 points more (the game
bonus; 200 if the other player won no hand at all), and each player 25 points for every hand won
(the line bonus). The score sheet shows every hand.

## For client authors
The draw action carries its pile as ` + "`from`" + ` (` + "`stock`" + ` or ` + "`discard`" + `), or as the
chosen value of the action's choices; laying off names the meld's zone (its owner as target and its
number, from 0, as index).
`
