-- Keyed posts (a `Post` with an `edit_key`): the message the first one went out as, which later posts
-- with the same key edit. `content` is what the message shows now (an appending post adds to it).
CREATE TABLE posted (
    game_id    INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    key        TEXT    NOT NULL,
    message_id INTEGER NOT NULL,
    content    TEXT    NOT NULL,
    PRIMARY KEY (game_id, channel_id, key)
);
