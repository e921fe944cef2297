-- A fixed deal for the browser test of Spades (web/tricks_play_test.go): seat 0 is dealt the
-- thirteen spades, its partner (seat 2) the high cards of the other suits, seats 1 and 3 the low
-- ones. Seat 0 bids nil and must take every trick (it trumps each lead, and the first spade it
-- plays breaks spades): the nil fails, its thirteen tricks are bags for the team (ten bags: -100),
-- and seat 2, who bid for tricks it cannot win, is set. With the option mercy the team is then
-- below -200 and the game ends after that hand.
name = "nil-deal"
description = "The first seat holds every spade, its partner the high cards: a nil that fails, and ten bags."

local HIGH = {A = true, K = true, Q = true, J = true}

function on_start(game)
  local spades, high, low = {}, {}, {}
  for seat = 0, 3 do
    for _, c in ipairs(game.zones["hand." .. seat]) do
      if cards.suit(c) == "S" then table.insert(spades, c)
      elseif HIGH[cards.face(c)] or c == "10H" then table.insert(high, c)
      else table.insert(low, c) end
    end
  end
  local one, three = {}, {}
  for i = 1, 13 do table.insert(one, low[i]); table.insert(three, low[i + 13]) end
  game.zones["hand.0"], game.zones["hand.1"], game.zones["hand.2"], game.zones["hand.3"] = spades, one, high, three
  game.log("spades to seat 0, the high cards to seat 2")
end
