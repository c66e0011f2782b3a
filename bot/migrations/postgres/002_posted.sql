-- SQLite's 007: keyed posts (a `Post` with an `edit_key`): the message the first one went out as, which
-- later posts with the same key edit. `content` is what the message shows now.
CREATE TABLE posted (
    game_id    BIGINT NOT NULL,
    channel_id BIGINT NOT NULL,
    key        TEXT   NOT NULL,
    message_id BIGINT NOT NULL,
    content    TEXT   NOT NULL,
    PRIMARY KEY (game_id, channel_id, key)
);
