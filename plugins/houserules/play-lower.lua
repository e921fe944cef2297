-- DRUGS' 9 "play lower": after a 9 (seen through 3s, like a 7) the next player must play lower
-- than 9: a 4 to 8 through this rule's "Play lower" action, or as ever a 2, 3, 10 or Joker.
-- Higher plays from hand or face-up cards are refused; a blind flip follows the base rules.
name = "play-lower"
description = "After a 9 the next player must play lower than 9 (or a 2, 3, 10 or Joker)."

local ORDER = {["2"] = 2, ["3"] = 3, ["4"] = 4, ["5"] = 5, ["6"] = 6, ["7"] = 7, ["8"] = 8,
  ["9"] = 9, ["10"] = 10, J = 11, Q = 12, K = 13, A = 14}

-- effective is the card a play must answer: the top card seen through 3s.
local function effective(game)
  local pile = game.zones.pile
  for i = #pile, 1, -1 do
    if cards.face(pile[i]) ~= "3" then return pile[i] end
  end
  return nil
end

local function restricted(game)
  local top = effective(game)
  return game.phase == "playing" and game.counters.armed == 0 and top ~= nil and cards.face(top) == "9"
end

-- lower is a card only this rule lets go on a 9: 4 to 8.
local function lower(c)
  local v = ORDER[cards.face(c)]
  return v ~= nil and v >= 4 and v <= 8
end

local function source(game, seat)
  if #game.hand(seat) > 0 then return "hand." .. seat end
  return "face_up." .. seat
end

function before_action(game, action)
  if action.type ~= "play" or not restricted(game) then return end
  for _, c in ipairs(action.cards) do
    local v = ORDER[cards.face(c)]
    if v ~= nil and v >= 9 and v ~= 10 then
      return c .. " is not lower than 9: after a 9 play lower (4-8 with Play lower), a 2, 3, 10 or Joker, or pick up the pile"
    end
  end
end

actions = {
  play_lower = {
    label = "Play lower",
    open = function(game, seat)
      if seat ~= game.turn or not restricted(game) or game.counters.gift_pending >= 0 then return nil end
      local offer = {}
      for _, c in ipairs(game.zones[source(game, seat)]) do
        if lower(c) then offer[#offer + 1] = c end
      end
      if #offer > 0 then return {cards = offer, multi = true} end
    end,
    apply = function(game, action)
      local seat, from = action.seat, source(game, action.seat)
      local face = cards.face(action.cards[1])
      for _, c in ipairs(action.cards) do
        if cards.face(c) ~= face then return "play cards of one rank" end
      end
      game.move(from, "pile", action.cards)
      game.emit("played", {seat = seat, cards = action.cards, data = {from = from:match("^[a-z_]+")}})
      while from == "hand." .. seat and #game.hand(seat) < 3 and #game.zones.deck > 0 do
        game.move("deck", from, 1)
      end
      -- Overdose (D-5): that many of one rank in a row on top burns the pile; the player goes again.
      local pile, run = game.zones.pile, 0
      for i = #pile, 1, -1 do
        if cards.face(pile[i]) ~= face then break end
        run = run + 1
      end
      if run >= game.counters.overdose then
        game.move("pile", "burned", #pile)
        game.emit("overdose", {seat = seat})
        return
      end
      if #game.hand(seat) == 0 and #game.zones["face_up." .. seat] == 0 then
        local left = 0
        for _, c in ipairs(game.zones["face_down." .. seat]) do
          if c ~= "-" then left = left + 1 end
        end
        if left == 0 then
          game.counters.winner = seat
          game.values.phase = "game_over"
          game.emit("won", {seat = seat})
          return
        end
      end
      game.turn = game.next_seat(seat)
    end,
    -- Bots lay every copy of their lowest lower card.
    bot = function(game, seat)
      local best
      for _, c in ipairs(game.zones[source(game, seat)]) do
        if lower(c) and (best == nil or ORDER[cards.face(c)] < ORDER[cards.face(best)]) then best = c end
      end
      if best == nil then return nil end
      local all = {}
      for _, c in ipairs(game.zones[source(game, seat)]) do
        if cards.face(c) == cards.face(best) then all[#all + 1] = c end
      end
      return {cards = all}
    end,
  },
}
