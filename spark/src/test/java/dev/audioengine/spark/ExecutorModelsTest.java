package dev.audioengine.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.spark.resource.ResourceInformation;
import org.junit.jupiter.api.Test;

/** Which device an executor opens: the one asked for, else the GPU Spark's scheduler gave the task, else 0. */
class ExecutorModelsTest {
    private static Map<String, ResourceInformation> gpus(String... addresses) {
        return Map.of("gpu", new ResourceInformation("gpu", addresses));
    }

    @Test
    void theTasksGpuOrdinalUnlessADeviceIsGiven() {
        assertThat(ExecutorModels.device(EngineSettings.DEFAULTS, gpus("3"))).isEqualTo(3);
        assertThat(ExecutorModels.device(EngineSettings.DEFAULTS, gpus("1", "2")))
                .isEqualTo(1);
        assertThat(ExecutorModels.device(EngineSettings.DEFAULTS.withDevice(2), gpus("3")))
                .isEqualTo(2);
        assertThat(ExecutorModels.device(EngineSettings.DEFAULTS, Map.of())).isZero();
        assertThat(ExecutorModels.device(EngineSettings.DEFAULTS, gpus())).isZero();
    }

    @Test
    void anAddressThatIsNoOrdinalIsRefused() {
        assertThatThrownBy(() -> ExecutorModels.device(EngineSettings.DEFAULTS, gpus("GPU-5f1a")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("GPU-5f1a")
                .hasMessageContaining("--device");
    }

    @Test
    void settingsAreCheckedAndTheJobsOptionsParsed() {
        assertThatThrownBy(() -> EngineSettings.DEFAULTS.withThreads(-1)).isInstanceOf(IllegalArgumentException.class);
        CorpusJob.Args a = CorpusJob.parse(new String[] {
            "in",
            "out",
            "--task",
            "vad",
            "--model",
            "silero_vad",
            "--format",
            "jsonl",
            "--mode",
            "append",
            "--threads",
            "1"
        });
        assertThat(a.task()).isEqualTo("vad");
        assertThat(a.settings().model()).isEqualTo("silero_vad");
        assertThat(a.settings().threads()).isEqualTo(1);
        assertThat(a.format()).isEqualTo("jsonl");
        assertThat(a.mode()).isEqualTo(org.apache.spark.sql.SaveMode.Append);
        assertThatThrownBy(() -> CorpusJob.parse(new String[] {"in", "out", "--format", "csv"}))
                .hasMessageContaining("parquet or jsonl");
        assertThatThrownBy(() -> CorpusJob.parse(new String[] {"in"})).hasMessageContaining("INPUT and OUTPUT");
    }

    /** The local-mode preload takes spark.task.cpus as a number; anything else skips it (Spark then says why). */
    @Test
    void taskCpusIsANumberOrNoPreload() {
        assertThat(CorpusJob.taskCpus(" 2 ")).isEqualTo(2);
        assertThat(CorpusJob.taskCpus("1")).isEqualTo(1);
        assertThat(CorpusJob.taskCpus("two")).isNull();
        assertThat(CorpusJob.taskCpus("")).isNull();
    }
}
