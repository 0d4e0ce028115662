package dev.audioengine.model.task;

/**
 * How a recognizer batches decoding across concurrent callers: windows decoded at the same time share decoder steps,
 * up to {@code maxBatch} sequences a step, and the batch holds no more sequences than the key/value caches
 * {@code memoryBudgetBytes} pays for (0: no budget; over it, windows wait for a slot). One at a time ({@link #NONE})
 * keeps today's one-sequence decoder and its memory; on a GPU a step over 64 sequences costs little more than over
 * one, so a server or a folder run batches there.
 *
 * @param maxBatch          sequences one decoder step may hold, at least 1
 * @param memoryBudgetBytes the most bytes the batch's caches may take on the device; 0 for no limit
 */
public record Batching(int maxBatch, long memoryBudgetBytes) {
    /** One sequence per decoder step and no budget: no batching. */
    public static final Batching NONE = new Batching(1, 0);

    /**
     * Checks the limits.
     *
     * @param maxBatch in [1, 1024]
     * @param memoryBudgetBytes {@code >= 0}; 0 for no limit
     * @throws IllegalArgumentException if a value is out of range; the message names {@code --max-batch}
     */
    public Batching {
        if (maxBatch < 1 || maxBatch > 1024)
            throw new IllegalArgumentException("--max-batch must be in [1, 1024], got " + maxBatch);
        if (memoryBudgetBytes < 0)
            throw new IllegalArgumentException(
                    "the batch memory budget must not be negative, got " + memoryBudgetBytes);
    }

    /**
     * Sequences a batch holds when each costs {@code bytesPerSequence}: maxBatch, or what the budget pays for (at least
     * one).
     *
     * @param bytesPerSequence device bytes one sequence's key/value caches take; 0 or less ignores the budget
     * @return a slot count in {@code [1, maxBatch]}
     */
    public int slots(long bytesPerSequence) {
        if (memoryBudgetBytes == 0 || bytesPerSequence <= 0) return maxBatch;
        return (int) Math.max(1, Math.min(maxBatch, memoryBudgetBytes / bytesPerSequence));
    }
}
