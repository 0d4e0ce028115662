package dev.audioengine.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.audioengine.server.http.Routes;
import dev.audioengine.server.serving.Metrics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * The Kubernetes manifests of deploy/kubernetes (no cluster here, so they are parsed, not applied): the kinds, the
 * container port and probe paths the server really has (Routes, ServerConfig), the queue-depth metric the server
 * exports (Metrics.QUEUE_DEPTH) in the autoscaler and the adapter's rule, the image scripts/image builds and the user
 * and volume deploy/image/pom.xml gives it, and docs/SERVER.md linking every file.
 */
class DeployManifestsTest {
    private static final Path ROOT = Path.of(System.getProperty("audioengine.repo.root", ".."))
            .toAbsolutePath()
            .normalize();
    private static final Path DIR = ROOT.resolve("deploy/kubernetes");

    private static Map<String, Object> load(String file) throws IOException {
        List<Object> docs = new ArrayList<>();
        new Yaml(new SafeConstructor(new LoaderOptions()))
                .loadAll(Files.readString(DIR.resolve(file)))
                .forEach(docs::add);
        assertThat(docs).as(file + ": one document").hasSize(1);
        return map(docs.getFirst());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        assertThat(o).isInstanceOf(Map.class);
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object o) {
        assertThat(o).isInstanceOf(List.class);
        return (List<Object>) o;
    }

    /** The value at a dotted path of maps; a number step indexes a list. */
    private static Object at(Object node, String path) {
        for (String step : path.split("\\.")) {
            node = step.matches("\\d+")
                    ? list(node).get(Integer.parseInt(step))
                    : map(node).get(step);
            assertThat(node).as(path + ": " + step).isNotNull();
        }
        return node;
    }

    private static String group(Path file, String regex) throws IOException {
        Matcher m = Pattern.compile(regex, Pattern.MULTILINE).matcher(Files.readString(file));
        assertThat(m.find()).as(file + " has " + regex).isTrue();
        return m.group(1);
    }

    @Test
    void theDeploymentRunsTheImageWithTheServersPortAndProbes() throws IOException {
        Map<String, Object> deployment = load("deployment.yaml");
        assertThat(deployment).containsEntry("apiVersion", "apps/v1").containsEntry("kind", "Deployment");
        assertThat(at(deployment, "spec.selector.matchLabels"))
                .isEqualTo(at(deployment, "spec.template.metadata.labels"));
        Object container = at(deployment, "spec.template.spec.containers.0");

        // the image scripts/image builds: its name, and the release's version (the root pom's, without -SNAPSHOT)
        String imageName = group(ROOT.resolve("scripts/image"), "^name=([a-z0-9-]+):\\$version$");
        String version = group(ROOT.resolve("pom.xml"), "^  <version>(.*)</version>$");
        assertThat(at(container, "image")).isEqualTo(imageName + ":" + version.replace("-SNAPSHOT", ""));

        @SuppressWarnings("unchecked")
        List<String> args = (List<String>) (List<?>) list(at(container, "args"));
        assertThat(args).startsWith("serve").contains("--preload");
        assertThat(args.get(args.indexOf("--host") + 1)).isEqualTo("0.0.0.0");
        String port = String.valueOf(ServerConfig.DEFAULT_PORT);
        if (args.contains("--port"))
            assertThat(args.get(args.indexOf("--port") + 1)).isEqualTo(port);
        assertThat(at(container, "ports.0.containerPort")).isEqualTo(ServerConfig.DEFAULT_PORT);
        assertThat(at(container, "ports.0.name")).isEqualTo("http");
        assertThat(at(container, "livenessProbe.httpGet.path")).isEqualTo(Routes.HEALTH);
        assertThat(at(container, "readinessProbe.httpGet.path")).isEqualTo(Routes.READY);
        assertThat(at(container, "livenessProbe.httpGet.port")).isEqualTo("http");
        assertThat(at(container, "readinessProbe.httpGet.port")).isEqualTo("http");
        assertThat(map(at(deployment, "spec.template.metadata.annotations")))
                .containsEntry("prometheus.io/port", port)
                .containsEntry("prometheus.io/path", Routes.METRICS);

        // the user and the model cache volume of the image
        Path imagePom = ROOT.resolve("deploy/image/pom.xml");
        String user = group(imagePom, "<user>(\\d+):\\d+</user>");
        assertThat(at(deployment, "spec.template.spec.securityContext.runAsUser"))
                .isEqualTo(Integer.parseInt(user));
        assertThat(at(deployment, "spec.template.spec.securityContext.runAsNonRoot"))
                .isEqualTo(true);
        String volume = group(imagePom, "<volume>(/[^<]*)</volume>");
        List<Object> mounts = list(at(container, "volumeMounts"));
        assertThat(mounts).anySatisfy(m -> assertThat(map(m)).containsEntry("mountPath", volume));
        assertThat(list(at(container, "env")))
                .anySatisfy(e -> assertThat(map(e))
                        .containsEntry("name", "AUDIOENGINE_CACHE")
                        .containsEntry("value", volume));
    }

    @Test
    void theModelVolumeIsTheClaimedCache() throws IOException {
        Map<String, Object> pvc = load("models-pvc.yaml");
        Map<String, Object> deployment = load("deployment.yaml");
        assertThat(pvc).containsEntry("apiVersion", "v1").containsEntry("kind", "PersistentVolumeClaim");
        Object container = at(deployment, "spec.template.spec.containers.0");
        String mounted = list(at(container, "volumeMounts")).stream()
                .map(DeployManifestsTest::map)
                .filter(m -> "/models".equals(m.get("mountPath")))
                .map(m -> (String) m.get("name"))
                .findFirst()
                .orElseThrow();
        Map<String, Object> volume = list(at(deployment, "spec.template.spec.volumes")).stream()
                .map(DeployManifestsTest::map)
                .filter(v -> mounted.equals(v.get("name")))
                .findFirst()
                .orElseThrow();
        assertThat(at(volume, "persistentVolumeClaim.claimName")).isEqualTo(at(pvc, "metadata.name"));
    }

    @Test
    void theServiceSelectsTheDeploymentsPods() throws IOException {
        Map<String, Object> service = load("service.yaml");
        Map<String, Object> deployment = load("deployment.yaml");
        assertThat(service).containsEntry("apiVersion", "v1").containsEntry("kind", "Service");
        assertThat(at(service, "spec.selector")).isEqualTo(at(deployment, "spec.template.metadata.labels"));
        assertThat(at(service, "spec.ports.0.targetPort"))
                .isEqualTo(at(deployment, "spec.template.spec.containers.0.ports.0.name"));
        assertThat(at(service, "spec.ports.0.port")).isEqualTo(ServerConfig.DEFAULT_PORT);
    }

    @Test
    void theAutoscalerScalesTheDeploymentOnTheQueueDepthTheServerExports() throws IOException {
        Map<String, Object> hpa = load("hpa.yaml");
        Map<String, Object> deployment = load("deployment.yaml");
        assertThat(hpa).containsEntry("apiVersion", "autoscaling/v2").containsEntry("kind", "HorizontalPodAutoscaler");
        assertThat(at(hpa, "spec.scaleTargetRef.kind")).isEqualTo("Deployment");
        assertThat(at(hpa, "spec.scaleTargetRef.name")).isEqualTo(at(deployment, "metadata.name"));
        assertThat(at(hpa, "spec.metrics.0.type")).isEqualTo("Pods");
        assertThat(at(hpa, "spec.metrics.0.pods.metric.name")).isEqualTo(Metrics.QUEUE_DEPTH);
        assertThat((Integer) at(hpa, "spec.minReplicas")).isPositive();
        assertThat((Integer) at(hpa, "spec.maxReplicas")).isGreaterThan((Integer) at(hpa, "spec.minReplicas"));

        Map<String, Object> adapter = load("prometheus-adapter/values.yaml");
        Object rule = at(adapter, "rules.custom.0");
        assertThat((String) at(rule, "seriesQuery")).startsWith(Metrics.QUEUE_DEPTH + "{");
        assertThat(at(rule, "name.as")).isEqualTo(Metrics.QUEUE_DEPTH);

        // the name the server really writes on /metrics
        assertThat(new Metrics().render(List.of())).contains("# TYPE " + Metrics.QUEUE_DEPTH + " gauge");
    }

    @Test
    void serverMdLinksEveryManifest() throws IOException {
        String doc = Files.readString(ROOT.resolve("docs/SERVER.md"));
        try (var files = Files.walk(DIR)) {
            // the folder's own files are what `kubectl apply -f deploy/kubernetes/` applies; the adapter's Helm values
            // are in a folder of their own so that it does not
            List<String> names = files.filter(Files::isRegularFile)
                    .map(p -> DIR.relativize(p).toString())
                    .sorted()
                    .toList();
            assertThat(names)
                    .containsExactly(
                            "deployment.yaml",
                            "hpa.yaml",
                            "models-pvc.yaml",
                            "prometheus-adapter/values.yaml",
                            "service.yaml");
            for (String name : names) assertThat(doc).contains("../deploy/kubernetes/" + name);
        }
    }
}
