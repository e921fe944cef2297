package hotspot

// rulesText is the "how to play" page of Info.Rules, written from the user's rule document and
// the rulings H-1..H-15 (both in docs/rulings/hotspot.md).
const rulesText = `# Hotspot

Be the first player to get rid of all your cards.

## The deal
2 to 8 players. One 52-card deck for 2–4 players, two decks for 5–8 (option *Decks*); no jokers.
Everyone gets 7 cards (option *Cards dealt*). A card is turned from the deck to start the pile; an
Ace, 2, Jack, Queen or King goes back into the deck at a random place and another is turned, until a
plain card starts the pile. The first game is opened by the first seat; after every game the
opening seat moves one seat round the table, whoever won.

## Your turn
Play a card matching the **suit** or the **rank** of the current card: on 7♥ any Heart or any 7.
Instead of playing you may always **draw** one card, even when you could play; drawing ends your
turn. (With the option *Play after drawing*, a drawn card you can play may be played at once, or
kept with *pass*.) When the deck runs out, the pile under its top card is shuffled into a new deck.

## Power cards
- **Ace: change suit.** An Ace is wild: play it on anything (except on a pending pick-up) and name
  Hearts, Diamonds, Clubs or Spades as the active suit in the same move.
- **Jack: reverse.** The direction of play reverses. With two players it simply passes the turn.
- **King: skip.** The next player misses a turn. With two players you go again.
- **Queen: optional extra go.** After a Queen you may play another legal card at once (it must be
  legal against the Queen), or end your turn (*pass*). You can select the whole sequence and play it
  as one move: Q♠ + 5♠. Another Queen as the follow-up gives another extra go, so Queens chain:
  Q♥ → Q♣ → 3♣. An Ace is a legal follow-up too.
- **2: pick up two.** Every 2 adds two cards to the pick-up penalty. The next player may play a 2 to
  pass the penalty on, increased by two; otherwise they draw the whole penalty, which ends their
  turn. While a penalty is pending only 2s may be played.

## Three or more of a kind
Holding three or more cards of one rank, you may play them together. The first must be legal on the
current card; the others follow because they share its rank. Two of a kind are not a group. Only the
top card's power acts (four Kings skip one player), except 2s: every 2 in a group adds two. A Queen's
extra go may lead into a group: Q♥ → Q♣ → 3♣ 3♥ 3♠ 3♦. You never have to use a group or an extra go.

## LAST CARD!
When a move leaves you with exactly one card you have 5 seconds (option *LAST CARD seconds*) to
press **LAST CARD!**; play goes on meanwhile. Miss it and you pick up one penalty card, and everyone
sees it. Going straight from several cards to none wins at once: no call needed.

## Winning
The first player to legally reach zero cards wins. The host presses *Deal* for the next game.
`
