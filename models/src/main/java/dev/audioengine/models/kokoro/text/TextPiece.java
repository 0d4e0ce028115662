package dev.audioengine.models.kokoro.text;

/**
 * One utterance's worth of text for Kokoro: its sentences (or clauses, or words) as written, joined by single spaces,
 * and their phonemes, at most the chunker's limit long and always {@link Phonemes#isSpeakable() speakable}.
 */
public record TextPiece(String text, Phonemes phonemes) {}
