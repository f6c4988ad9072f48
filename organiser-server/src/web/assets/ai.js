
// AI settings (ai.js): the note-titles backfill's progress.