package lastcard

// rulesMarkdown is the "how to play" page players read in the client (Info.Rules), written from
// the rule document and rulings L-1 to L-12 (both in docs/rulings/lastcard.md).
const rulesMarkdown = `# Last Card

**Goal.** Be the first to get rid of all your cards. The winner of a round scores the points of
the cards left in the opponents' hands. A game runs over several rounds up to 500 points (or 200),
or is a single round.

## The deck
108 cards in four colours, red (the flame), yellow (the sun), green (the leaf) and blue (the
moon). Each colour has one 0, two of every digit from 1 to 9, two Skips, two Reverses and two Draw
Twos. Then four Jokers and four Joker Draw Fours.

## How it works
- Each player is dealt 7 cards. A number card is turned over to start the discard pile (a special
  card turned up goes back into the deck).
- On your turn, play one card of the colour in play or of the same value as the top card (same
  digit or same symbol), or a Joker.
- If you cannot play, or do not want to, **draw** a card. If it can be played you may play it
  straight away or **keep** it; otherwise your turn ends.
- When the draw pile is empty, the discard pile (except its top card) is shuffled into a new draw
  pile.

## Special cards
- **Skip**: the next player misses their turn.
- **Reverse**: the direction of play changes. With two players it acts like a Skip: you play again.
- **Draw Two**: the next player draws two cards and misses their turn; they press *Draw* to take
  them. With stacking (on by default) they may instead play a Draw Two of any colour: the penalty
  passes to the next player, increased by two (4, 6, 8 cards...).
- **Joker**: can be played on any card; you choose the colour.
- **Joker Draw Four**: you choose the colour and the next player draws four cards and misses their
  turn. Nothing can be played on it, not even a Draw Two, and it cannot answer a Draw Two. By
  default you may play it only when you hold no card of the colour in play (option *Any time*
  lifts this). There is no challenge.
- A special card played as your **very last card** ends the round at once, with no effect.

## Last card!
Before or with playing your second-to-last card, press **Last card!**. If you forget:
- when others may catch you out (against the computer, pass the device) any opponent may press
  **Catch out** until the next player acts, and you draw two penalty cards; the computer's
  players wait a moment first, so a person can catch a bot that forgot;
- with the automatic penalty (online), ending your turn on one card without calling draws you two
  penalty cards at once.
Drawing a card cancels an earlier call: call again when you are back to two cards.

## Scoring
The round's winner scores the cards left in the opponents' hands: digits at face value (0 to 9),
20 points for Skip, Reverse and Draw Two, 40 for a Joker and 60 for a Joker Draw Four. The first
player to reach the total chosen (500 or 200) wins the game. The host deals each round; the first
player moves one seat on every round.

## Players
2 to 4 players: online, against the computer (one to three opponents) or passing one device.
Level 1 computer players play almost at random; level 2 follow simple rules: they attack when you
get close to going out and impose their dominant colour. No computer player ever sees your cards.
`
