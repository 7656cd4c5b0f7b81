CREATE TABLE "ticket_words" (
	"company_id" integer NOT NULL,
	"word" text collate "C" NOT NULL,
	"ticket_id" integer NOT NULL,
	CONSTRAINT "ticket_words_pkey" PRIMARY KEY("company_id","word","ticket_id")
);
--> statement-breakpoint
DROP INDEX "messages_body_fts_idx";;--> statement-breakpoint
-- Hand-written below (functions, triggers, the backfill): drizzle-kit knows none of them.
-- The folding of the search, on the stored words and on the searched text alike: lower case, accents
-- off (precomposed letters of Portuguese and Spanish, and combining marks U+0300-U+036F, which are
-- deleted). translate(), not unaccent: PGlite has no unaccent extension.
CREATE FUNCTION search_fold(body text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT translate(lower(body), 'ÁÀÂÃÄÅáàâãäåÉÈÊËéèêëÍÌÎÏíìîïÓÒÔÕÖóòôõöÚÙÛÜúùûüÇçÑñÝýÿ̴̵̶̷̸̡̢̧̨̛̖̗̘̙̜̝̞̟̠̣̤̥̦̩̪̫̬̭̮̯̰̱̲̳̹̺̻̼͇͈͉͍͎̀́̂̃̄̅̆̇̈̉̊̋̌̍̎̏̐̑̒̓̔̽̾̿̀́͂̓̈́͆͊͋͌̕̚ͅ͏͓͔͕͖͙͚͐͑͒͗͛ͣͤͥͦͧͨͩͪͫͬͭͮͯ͘͜͟͢͝͞͠͡', 'aaaaaaaaaaaaeeeeeeeeiiiiiiiioooooooooouuuuuuuuccnnyyy')
$$;--> statement-breakpoint
-- The words of a text as the search knows them: the lexemes of the 'simple' configuration (no stop
-- words, no stemming) of the folded text, distinct and sorted.
CREATE FUNCTION search_words(body text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT tsvector_to_array(to_tsvector('simple'::regconfig, search_fold(body)))
$$;--> statement-breakpoint
-- The search of a text over a company's ticket_words, as one query: the tickets holding every word
-- of the text, each word whole or (3 characters and more) as the beginning of a longer word: a range
-- [word, word || U+10FFFF) of the "C"-collated key, every ticket id read from the index alone. The
-- words are written into the query as literals, so that the planner estimates each range from the
-- statistics of ticket_words (a parameter would be planned blind, as a million rows). NULL when the
-- text has no word.
CREATE FUNCTION search_ticket_words_query(p_company_id integer, p_text text) RETURNS text LANGUAGE sql STABLE STRICT AS $$
  SELECT string_agg(
           CASE WHEN length(term) >= 3
             THEN format('SELECT ticket_id FROM ticket_words WHERE company_id = %s AND word >= %L AND word < %L', p_company_id, term, term || chr(1114111))
             ELSE format('SELECT ticket_id FROM ticket_words WHERE company_id = %s AND word = %L', p_company_id, term)
           END,
           ' INTERSECT ')
  FROM unnest(search_words(p_text)) AS term
$$;--> statement-breakpoint
-- Its ticket ids (a prefix matching several words of a ticket may give that ticket more than once).
CREATE FUNCTION search_ticket_ids(p_company_id integer, p_text text) RETURNS SETOF integer LANGUAGE plpgsql STABLE STRICT ROWS 1000 AS $$
DECLARE
  query text := search_ticket_words_query(p_company_id, p_text);
BEGIN
  IF query IS NOT NULL THEN
    RETURN QUERY EXECUTE query;
  END IF;
END
$$;--> statement-breakpoint
-- Forgets words of a ticket that no live message of it holds any more (after a message was deleted,
-- soft-deleted, edited or moved): the ticket's live messages are read once.
CREATE FUNCTION ticket_words_forget(p_company_id integer, p_ticket_id integer, p_words text[]) RETURNS void LANGUAGE sql AS $$
  DELETE FROM ticket_words tw
  WHERE tw.company_id = p_company_id AND tw.ticket_id = p_ticket_id AND tw.word = ANY (p_words)
    AND NOT EXISTS (
      SELECT 1 FROM (
        SELECT DISTINCT w.word FROM messages m CROSS JOIN LATERAL unnest(search_words(m.body)) AS w(word)
        WHERE m.company_id = p_company_id AND m.ticket_id = p_ticket_id AND NOT m.is_deleted
      ) kept
      WHERE kept.word = tw.word)
$$;--> statement-breakpoint
-- New messages, once per statement (a batch of the inbound pipeline is one INSERT): their words, in
-- key order (concurrent writers take the keys in the same order), each (company, word, ticket) once.
CREATE FUNCTION ticket_words_messages_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO ticket_words (company_id, word, ticket_id)
  SELECT DISTINCT m.company_id, w.word, m.ticket_id
  FROM inserted_messages m CROSS JOIN LATERAL unnest(search_words(m.body)) AS w(word)
  WHERE NOT m.is_deleted AND m.body <> ''
  ORDER BY 1, 2, 3
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER messages_ticket_words_insert AFTER INSERT ON messages
  REFERENCING NEW TABLE AS inserted_messages FOR EACH STATEMENT EXECUTE FUNCTION ticket_words_messages_inserted();--> statement-breakpoint
-- Deleted messages (by hand, by the retention job, with their ticket or company): once per ticket.
CREATE FUNCTION ticket_words_messages_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM ticket_words_forget(gone.company_id, gone.ticket_id, gone.words)
  FROM (
    SELECT d.company_id, d.ticket_id, array_agg(DISTINCT w.word) AS words
    FROM deleted_messages d CROSS JOIN LATERAL unnest(search_words(d.body)) AS w(word)
    WHERE NOT d.is_deleted
    GROUP BY d.company_id, d.ticket_id
  ) gone;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER messages_ticket_words_delete AFTER DELETE ON messages
  REFERENCING OLD TABLE AS deleted_messages FOR EACH STATEMENT EXECUTE FUNCTION ticket_words_messages_deleted();--> statement-breakpoint
-- An edit, a soft delete (or its undoing), a move to another ticket: per row, and only when one of
-- these changed (acks and read marks, the frequent updates, do not fire it).
CREATE FUNCTION ticket_words_message_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT OLD.is_deleted THEN
    PERFORM ticket_words_forget(OLD.company_id, OLD.ticket_id, search_words(OLD.body));
  END IF;
  IF NOT NEW.is_deleted THEN
    INSERT INTO ticket_words (company_id, word, ticket_id)
    SELECT NEW.company_id, w.word, NEW.ticket_id FROM unnest(search_words(NEW.body)) AS w(word)
    ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER messages_ticket_words_update AFTER UPDATE OF body, is_deleted, ticket_id, company_id ON messages
  FOR EACH ROW
  WHEN (OLD.body IS DISTINCT FROM NEW.body OR OLD.is_deleted IS DISTINCT FROM NEW.is_deleted
        OR OLD.ticket_id IS DISTINCT FROM NEW.ticket_id OR OLD.company_id IS DISTINCT FROM NEW.company_id)
  EXECUTE FUNCTION ticket_words_message_updated();--> statement-breakpoint
-- The words of the messages already stored.
INSERT INTO ticket_words (company_id, word, ticket_id)
SELECT DISTINCT m.company_id, w.word, m.ticket_id
FROM messages m CROSS JOIN LATERAL unnest(search_words(m.body)) AS w(word)
WHERE NOT m.is_deleted AND m.body <> '';
