/**
 * Transcription, voice activity detection and speech synthesis over a corpus as Apache Spark jobs.
 * <p>
 * {@link dev.audioengine.spark.AsrTransformer}, {@link dev.audioengine.spark.VadTransformer} and
 * {@link dev.audioengine.spark.TtsTransformer} add result columns to a DataFrame of audio (Spark's {@code binaryFile}
 * source, or a manifest with a {@code path} column) or of text. Each executor JVM loads one engine and one model per
 * setting ({@link dev.audioengine.spark.ExecutorModels}), never one per row; {@link dev.audioengine.spark.CorpusJob}
 * is the {@code spark-submit} entry point. The engine's jars run on Spark's class path, where the backends and model
 * families are found through their {@code META-INF/services} entries.
 */
package dev.audioengine.spark;
