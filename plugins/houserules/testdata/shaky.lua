name = "shaky"
description = "Breaks the bot in seat 1 when told to."
options = {{name = "break_bot", type = "int", default = 0, min = 0, max = 2}}
function before_action(game, action)
  if game.options.break_bot ~= 1 or action.seat ~= 1 then return end
  if action.type == "play" then return "seat 1 may not play" end
  if action.type == "draw" then
    local x = nil
    return x.boom
  end
end

-- A test rule, not an example: platform/server/livefaults_test.go and
-- admin/live_browser_test.go load it. It passes the upload's dry run, which plays the default
-- and each option's extremes (0 and 2) but not every value between: break_bot = 1 is a bug the
-- check cannot find. There it refuses every play of seat 1 and fails (line 9: an error, not a
-- refusal) on every draw of seat 1, so the bot in seat 1 has no move that works. Both tests
-- assert line 9: keep `return x.boom` there.
