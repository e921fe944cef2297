package hearts

// rulesText is the "how to play" page of Info.Rules, written from /shared/variants/hearts.md
// (HE-1..HE-10) and this package's rulings (doc.go).
const rulesText = `# Hearts

Avoid taking hearts and the queen of spades. When someone reaches the target score at the end of a
hand, the game ends and the **lowest** score wins.

## The deal
Four players, one 52-card deck, 13 cards each. Aces are high: A, K, Q, J, 10 … 2 in every suit.
There are no trumps.

## Passing
Before each hand everyone chooses **three cards** and passes them face down: to the left (the next
player), then to the right, then across the table, then no pass; then the cycle starts again.
Select your three cards (change your mind as often as you like) and press **Pass**: pressing it
confirms your choice, which cannot be changed after that. Nobody sees the cards they receive until
everyone has passed; the cards you receive are then marked in the log. With the option *Pass three
cards* off, every hand is played as dealt.

## Playing
The player holding the **2♣** leads it to the first trick. Play goes round the table, each
player adding one card.

- **Follow suit** when you can. If you cannot, play any card, except that on the **first trick** you
  may not play a heart or the Q♠ unless you hold nothing else.
- The **highest card of the suit led** takes the trick. Its taker leads the next trick.
- **Hearts are broken** once a heart has been played on a trick. Until then you may not lead a heart,
  unless you hold only hearts. The Q♠ may be led at any time and does not break hearts.

Everyone sees each trick as it is played, who played which card and who took it, and how many
points each player has taken this hand. The last trick taken stays on show for review.

## Scoring
At the end of the hand, every heart you took costs **1 point** and the Q♠ costs **13**.

**Shooting the moon:** if one player takes all 13 hearts and the Q♠, everyone else scores 26 and the
shooter 0 (option *Shooting the moon*: or the shooter takes 26 off their own score instead).

| card | points |
| --- | --- |
| each heart | 1 |
| Q♠ | 13 |
| all of them (the moon) | 0 for the shooter, 26 for each other player |

## The end
When a player reaches or passes the target (100 by default, option *Game ends at*) at the end of a
hand, the game ends. The lowest total wins; equal lowest totals share the win. Otherwise the host
deals the next hand.
`
