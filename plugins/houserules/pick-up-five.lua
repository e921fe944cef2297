-- Hotspot's 5s as pick-up-five: every 5 played adds five cards to the pickup penalty, the way a 2
-- adds two. The next player must answer with a 2 (H-6) or draw the whole penalty.
name = "pick-up-five"
description = "Every 5 played adds five cards to the pickup penalty, like a 2 adds two."
options = {
  {name = "cards", type = "int", default = 5, min = 1, max = 10, label = "Cards per 5",
   description = "How many cards each 5 adds to the penalty."},
}

function after_action(game, action)
  if action.type ~= "play" or game.phase ~= "playing" then return end
  local fives = 0
  for _, c in ipairs(action.cards) do
    if cards.rank(c) == 5 then fives = fives + 1 end
  end
  if fives == 0 then return end
  local add = fives * game.options.cards
  game.counters.penalty = game.counters.penalty + add
  game.emit("pick_up_five", {seat = game.turn, count = add})
end
