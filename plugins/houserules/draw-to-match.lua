-- Last Card's draw-to-match: a player who draws (not a penalty) keeps drawing until a card they
-- can play turns up, and may then play it or keep it, as with a single drawn card (L-3).
name = "draw-to-match"
description = "Drawing means drawing until you find a card you can play (penalty draws excepted)."

-- playable follows Last Card's matching with Joker Draw Four's default (no_colour_match).
local function playable(game, c, hand)
  if c == "W" then return true end
  local color = game.values.color
  if c == "W+4" then
    for _, h in ipairs(hand) do
      if cards.color(h) == color then return false end
    end
    return true
  end
  return cards.color(c) == color or cards.face(c) == cards.face(game.top())
end

function after_action(game, action)
  if action.type ~= "draw" or game.phase ~= "playing" then return end
  for _, ev in ipairs(game.events) do
    if ev.name == "penalty_drawn" then return end
  end
  -- The turn stayed with the drawer: the drawn card is playable and the base rules offer it.
  if game.turn == action.seat then return end
  local hand = "hand." .. action.seat
  local more = 0
  while #game.zones.deck > 0 do
    local c = game.move("deck", hand, 1)[1]
    more = more + 1
    if playable(game, c, game.zones[hand]) then
      game.turn = action.seat
      game.values.drawn = c
      break
    end
  end
  if more > 0 then
    game.emit("drew_to_match", {seat = action.seat, count = more})
  end
end
