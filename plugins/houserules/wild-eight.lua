-- Hotspot's crazy eights: an 8 is wild as well as an Ace. Its player may lay it on anything and
-- name the suit to follow (a choice: the action's args.choice); with the option set, the next
-- player must also pick up cards, as after a 2, unless they answer with a 2.
name = "wild-eight"
description = "An 8 is wild too: lay it on anything and name the suit to follow."
options = {
  {name = "pick_up", type = "int", default = 0, min = 0, max = 4, label = "Cards to pick up",
   description = "The next player picks up this many after a wild 8, unless they answer with a 2."},
}

local SUITS = {"S", "H", "D", "C"}

-- The 8s the seat in turn may lay as wild: none under a penalty (only a 2 answers it, H-6) or
-- during a Queen's extra go, and none that would leave fewer than two cards (so a wild 8 never
-- ends the game or opens a LAST CARD window: the variant's own play does those).
local function eights(game, seat)
  if game.phase ~= "playing" or seat ~= game.turn then return nil end
  if game.counters.penalty > 0 or game.counters.extra_go > 0 then return nil end
  local hand = game.hand(seat)
  if #hand < 3 then return nil end
  local out = {}
  for _, c in ipairs(hand) do
    if cards.rank(c) == 8 then out[#out + 1] = c end
  end
  if #out > 0 then return out end
end

actions = {
  wild_eight = {
    label = "Wild 8",
    open = function(game, seat)
      local e = eights(game, seat)
      if e then return {cards = e, choices = SUITS} end
    end,
    apply = function(game, action)
      local c, suit = action.cards[1], action.args.choice
      game.move("hand." .. action.seat, "pile", c)
      game.values.suit = suit
      game.counters.penalty = game.options.pick_up
      game.turn = game.next_seat(action.seat)
      game.emit("wild_eight", {seat = action.seat, cards = {c}, data = {suit = suit}})
    end,
    -- Bots lay a wild 8 when they hold one, naming the suit they hold most of.
    bot = function(game, seat)
      local e = eights(game, seat)
      if not e then return nil end
      local count, best = {}, "S"
      for _, c in ipairs(game.hand(seat)) do
        local s = cards.suit(c)
        if s and cards.rank(c) ~= 8 then count[s] = (count[s] or 0) + 1 end
      end
      for _, s in ipairs(SUITS) do
        if (count[s] or 0) > (count[best] or 0) then best = s end
      end
      return {cards = {e[1]}, choice = best}
    end,
  },
}
