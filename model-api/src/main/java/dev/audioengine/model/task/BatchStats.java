package dev.audioengine.model.task;

/**
 * What a recognizer's batched decoder has done and holds (the server's {@code /metrics}): one decoder step advances
 * every sequence in flight by a token, so {@link #occupancy()} is how many windows a step served on average.
 *
 * @param slots         sequences one step can hold (the batch size in use: --max-batch, or fewer when the memory
 *                      budget holds fewer caches)
 * @param active        sequences in flight now
 * @param queued        windows waiting for a slot now
 * @param steps         decoder steps run
 * @param sequenceSteps tokens decoded over all steps (the sum of every step's sequences)
 * @param windows       windows decoded, including those that found the batch idle and were decoded alone (as without
 *                      batching, so that a lone request costs nothing extra; they add no steps)
 */
public record BatchStats(int slots, int active, int queued, long steps, long sequenceSteps, long windows) {
    /** All zero: a recognizer that does not batch, or the start of a sum. */
    public static final BatchStats NONE = new BatchStats(0, 0, 0, 0, 0, 0);

    /**
     * Sequences per step on average; 0 before the first step.
     *
     * @return {@code sequenceSteps / steps}, between 1 and {@code slots} once steps have run
     */
    public double occupancy() {
        return steps == 0 ? 0 : sequenceSteps / (double) steps;
    }

    /**
     * The sum of two batches' figures (a model with several batches, or several devices).
     *
     * @param o the other batch's figures
     * @return a new record with every field summed
     */
    public BatchStats plus(BatchStats o) {
        return new BatchStats(
                slots + o.slots,
                active + o.active,
                queued + o.queued,
                steps + o.steps,
                sequenceSteps + o.sequenceSteps,
                windows + o.windows);
    }
}
