-- The companion's store. History is append-only: nothing here is ever updated or deleted; a correction
-- is a new row, and an undo is a row that reverts an earlier correction. `PRAGMA user_version` holds the
-- schema version that companion_app/db.py checks on start.

CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    token TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    setup TEXT NOT NULL,  -- JSON: the game's own set-up (Sagrada: ruleset, public objectives, tools)
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE IF NOT EXISTS players (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    colour TEXT NOT NULL,
    setup TEXT NOT NULL,  -- JSON: the player's own set-up (Sagrada: pattern, private objective)
    UNIQUE (game_id, seat)
);

CREATE TABLE IF NOT EXISTS captures (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id),
    player_id INTEGER NOT NULL REFERENCES players (id),
    submission TEXT NOT NULL,  -- the form's one-time key: a resent form finds its capture, never a second
    photo_file TEXT,  -- name under the instance folder's photos/, NULL for a typed capture
    photo_width INTEGER,
    photo_height INTEGER,
    reading TEXT NOT NULL,  -- JSON: what was read (or typed) from the table
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (game_id, submission)
);

CREATE TABLE IF NOT EXISTS corrections (
    id INTEGER PRIMARY KEY,
    capture_id INTEGER NOT NULL REFERENCES captures (id),
    cell TEXT,  -- the space fixed, in the game's notation; NULL for an undo
    die TEXT,  -- the die now there, in the game's notation; NULL marks the space empty
    reverts INTEGER UNIQUE REFERENCES corrections (id),  -- set on an undo: the correction it takes back
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id),
    kind TEXT NOT NULL,  -- created, capture, correction, undo, ended
    subject_id INTEGER,  -- the capture or correction the event is about
    summary TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

CREATE INDEX IF NOT EXISTS events_by_game ON events (game_id, id);
CREATE INDEX IF NOT EXISTS captures_by_game ON captures (game_id, id);
CREATE INDEX IF NOT EXISTS corrections_by_capture ON corrections (capture_id, id);

-- The store itself refuses to change history, whatever code asks it to.
CREATE TRIGGER IF NOT EXISTS games_append_only BEFORE UPDATE ON games
BEGIN SELECT RAISE(ABORT, 'games are append-only'); END;
CREATE TRIGGER IF NOT EXISTS games_kept BEFORE DELETE ON games
BEGIN SELECT RAISE(ABORT, 'games are append-only'); END;
CREATE TRIGGER IF NOT EXISTS players_append_only BEFORE UPDATE ON players
BEGIN SELECT RAISE(ABORT, 'players are append-only'); END;
CREATE TRIGGER IF NOT EXISTS players_kept BEFORE DELETE ON players
BEGIN SELECT RAISE(ABORT, 'players are append-only'); END;
CREATE TRIGGER IF NOT EXISTS captures_append_only BEFORE UPDATE ON captures
BEGIN SELECT RAISE(ABORT, 'captures are append-only'); END;
CREATE TRIGGER IF NOT EXISTS captures_kept BEFORE DELETE ON captures
BEGIN SELECT RAISE(ABORT, 'captures are append-only'); END;
CREATE TRIGGER IF NOT EXISTS corrections_append_only BEFORE UPDATE ON corrections
BEGIN SELECT RAISE(ABORT, 'corrections are append-only'); END;
CREATE TRIGGER IF NOT EXISTS corrections_kept BEFORE DELETE ON corrections
BEGIN SELECT RAISE(ABORT, 'corrections are append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_append_only BEFORE UPDATE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;
CREATE TRIGGER IF NOT EXISTS events_kept BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'events are append-only'); END;

PRAGMA user_version = 1;
