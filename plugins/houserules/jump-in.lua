-- Last Card's jump-in: a player holding a card identical to the top card (same colour and the
-- same number) may play it out of turn; play then goes on from them, skipping whoever was next.
name = "jump-in"
description = "Hold a number card identical to the top card? Play it out of turn: play goes on from you."

-- Jumping in is open while no penalty waits, to a player not in turn who holds the identical card
-- and keeps at least two cards after it (so it never ends a round or needs a "Last card!" call).
local function jump_card(game, seat)
  if game.phase ~= "playing" or seat == game.turn or game.counters.penalty > 0 then return nil end
  local top = game.top()
  if top == nil or cards.color(top) == nil or cards.value(top) > 9 then return nil end
  local hand = game.hand(seat)
  if #hand < 3 then return nil end
  for _, c in ipairs(hand) do
    if c == top then return c end
  end
  return nil
end

actions = {
  jump_in = {
    label = "Jump in",
    open = function(game, seat)
      local c = jump_card(game, seat)
      if c then return {cards = {c}} end
    end,
    apply = function(game, action)
      local c = action.cards[1]
      game.move("hand." .. action.seat, "pile", c)
      game.values.color = cards.color(c)
      game.values.drawn = ""
      game.turn = game.next_seat(action.seat)
      game.emit("jumped_in", {seat = action.seat, cards = {c}})
    end,
    -- Bots always jump in when they can.
    bot = function(game, seat)
      local c = jump_card(game, seat)
      if c then return {cards = {c}} end
    end,
  },
}
