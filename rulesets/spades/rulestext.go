package spades

// rulesText is the "how to play" page of Info.Rules, written from the rule document SP-1..SP-8
// and the rulings of doc.go.
const rulesText = `# Spades

Two teams of partners bid how many tricks they will take; spades are always trumps.

## The table
Four players in two partnerships: partners sit across from each other (seats 1 and 3 against
seats 2 and 4). One 52-card deck, 13 cards each. The dealer moves one seat on every hand; the
player after the dealer bids first and leads the first trick, and bidding and play go round the
table in the same direction.

## Bidding
Once round the table, each player bids how many tricks they think they will take: **Nil** (none at
all) or 1 to 13. Everyone sees every bid. Your team's **contract** is the two bids added up; a Nil
bidder adds nothing to it.

**Blind nil** (option): every player starts the hand without seeing their cards (only the backs
show). Before you look, and only then, you may bid *Blind nil* on your turn: like Nil, but worth
twice as much. You look by pressing *Look at your cards* at any time during the bidding, or by
making any other bid, which shows you your cards at once. A Blind nil bidder picks the cards up as
soon as the bidding is over, to play them.

## Play
Spades are trumps. Aces are high, 2s low. The player after the dealer leads any card except a
spade; then each player in turn plays one card. You must **follow the suit led** if you can;
otherwise you may play any card, a spade included.

Spades may not be led until a spade has been played on an earlier trick (**spades are broken**),
unless you hold nothing but spades.

The trick is taken by the highest spade in it, or, if no spade was played, by the highest card of
the suit led. Whoever takes a trick leads the next. The trick just taken stays on the table until
the next card is played, and the last trick can always be looked at.

## Scoring (each hand, per team)
| what | points |
| --- | --- |
| contract made | 10 per trick bid, plus 1 per extra trick (a **bag**) |
| contract missed (**set**) | minus 10 per trick bid |
| Nil made (no trick taken) | +100 |
| Nil failed | −100; the Nil bidder's tricks are bags for the team (1 point each), never part of the contract |
| Blind nil | +200 or −200, the same way |
| every 10 bags gathered | −100; the count of bags starts again from what is left over |

## Winning
The game is played to **500 points** (option: 100 to 1000). At the end of a hand in which a team has
reached it, the team with the higher total wins; if the totals are equal, another hand is played.
With the **mercy rule** (on unless the table turns it off), a team whose total falls to −200 or below
loses at the end of that hand (if both do, the higher total wins).

## What everyone sees
Every bid, each team's contract, the tricks each player has taken this hand, the teams' totals and
bags, the score sheet hand by hand, the trick on the table and the last trick. At the end of a hand
every card left is shown.
`
