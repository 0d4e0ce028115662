/**
 * Spotify's Basic Pitch (audio to notes, {@code --task notes}): its TF.js model written on the graph API
 * ({@link dev.audioengine.models.basicpitch.BasicPitchNetwork}) and its JavaScript package's note decoding
 * ({@link dev.audioengine.models.basicpitch.NoteDecoding}).
 */
package dev.audioengine.models.basicpitch;
