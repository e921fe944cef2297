-- A fixed deal for the browser test of Hearts (web/tricks_play_test.go): every hand, seat 0 is
-- dealt the thirteen clubs and the seat that passes to it the thirteen spades; the other two seats
-- share the hearts and diamonds as the shuffle left them. Seat 0 passes its three lowest clubs and
-- receives the top three spades (a level-2 bot passes the A, K and Q of spades first), so whatever
-- anyone plays it takes every trick: a moon shot in each of the four hands (left, right, across,
-- no pass), and at 26 a hand to each other seat the game ends after the fourth at 104.
name = "moon-deal"
description = "The first seat holds every club, and the seat passing to it every spade: the first seat shoots the moon."

-- The seat that passes to seat 0 in each direction (the game's seats count from 0).
local PASSER = {left = 3, right = 1, across = 2, none = 2}

function on_start(game)
  local clubs, spades, rest = {}, {}, {}
  for seat = 0, 3 do
    for _, c in ipairs(game.zones["hand." .. seat]) do
      local s = cards.suit(c)
      if s == "C" then table.insert(clubs, c)
      elseif s == "S" then table.insert(spades, c)
      else table.insert(rest, c) end
    end
  end
  local passer = PASSER[game.values.pass]
  local hands = {[0] = clubs, [passer] = spades}
  local k = 1
  for seat = 1, 3 do
    if seat ~= passer then
      local h = {}
      for i = k, k + 12 do table.insert(h, rest[i]) end
      k = k + 13
      hands[seat] = h
    end
  end
  for seat = 0, 3 do game.zones["hand." .. seat] = hands[seat] end
  -- With no pass the lead was given to the 2 of clubs' holder before the deal was fixed: seat 0
  -- holds it now.
  if game.values.stage == "play" then game.turn = 0 end
  game.log("hand " .. game.counters.hand .. ", pass " .. game.values.pass .. ": clubs to seat 0, spades to seat " .. passer)
end
