/**
 * The tasks of the {@code audioengine} command ({@code --task vad}, {@code asr} and {@code tts}): their options, how
 * inputs are read and where outputs are written.
 */
package dev.audioengine.cli.task;
