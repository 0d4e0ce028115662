/**
 * Writers for task results: speech segments as JSON, CSV, RTTM, Audacity labels or subtitles, and synthesized audio as
 * WAV, whole or streamed.
 */
package dev.audioengine.model.output;
