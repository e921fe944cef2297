-- Last Card's 7-0 rule: whoever plays a 7 swaps hands with a player of their choice; whoever
-- plays a 0 makes every hand pass one seat along in the direction of play.
name = "seven-zero"
description = "Playing a 7 swaps your hand with a player you choose; playing a 0 passes every hand one seat along."
options = {
  {name = "zero_passes", type = "bool", default = true, label = "0 passes hands",
   description = "Whether a 0 passes every hand along (off: only the 7 rule)."},
}

local function value(code) return cards.face(code) end

function after_action(game, action)
  if action.type ~= "play" or game.phase ~= "playing" then return end
  local played = action.cards[#action.cards]
  local seat = action.seat
  if value(played) == "7" and #game.hand(seat) > 0 then
    -- The game waits until the player chooses (the swap action below blocks every other action).
    game.memory.swapper = seat
    game.memory.next = game.turn
    game.turn = seat
    game.values.drawn = ""
  elseif value(played) == "0" and game.options.zero_passes then
    local hands = {}
    for s = 0, game.seats - 1 do hands[s] = game.zones["hand." .. s] end
    for s = 0, game.seats - 1 do
      game.zones["hand." .. game.next_seat(s)] = hands[s]
    end
    game.emit("hands_passed", {seat = seat})
  end
end

actions = {
  swap_hands = {
    label = "Swap hands with…",
    blocking = true,
    open = function(game, seat)
      if game.memory.swapper ~= seat then return nil end
      local others = {}
      for s = 0, game.seats - 1 do
        if s ~= seat then others[#others + 1] = s end
      end
      return {targets = others}
    end,
    apply = function(game, action)
      local mine, theirs = "hand." .. action.seat, "hand." .. action.target
      game.zones[mine], game.zones[theirs] = game.zones[theirs], game.zones[mine]
      game.turn = game.memory.next
      game.memory.swapper, game.memory.next = nil, nil
      game.emit("hands_swapped", {seat = action.seat, data = {with = tostring(action.target)}})
    end,
    -- A bot takes the smallest hand (the first such seat after its own).
    bot = function(game, seat)
      local best, size = nil, math.huge
      for i = 1, game.seats - 1 do
        local s = (seat + i) % game.seats
        local n = #game.hand(s)
        if n < size then best, size = s, n end
      end
      return {target = best}
    end,
  },
}
