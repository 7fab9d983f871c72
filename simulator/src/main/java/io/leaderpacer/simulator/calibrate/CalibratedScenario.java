package io.leaderpacer.simulator.calibrate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.leaderpacer.simulator.scenario.ModelKey;
import io.leaderpacer.simulator.scenario.Scenario;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The template scenario with the calibration written into it: the measured downtime and unfencing delay, and the
 * fitted model values. Edits the template's YAML tree, so everything else the operator wrote stays as it was
 * (comments are not kept: a header says where the file came from).
 */
public final class CalibratedScenario {

    private CalibratedScenario() {}

    public static String yaml(String templateText, String name, FitResult fit, String provenance, String reportName) {
        ObjectMapper mapper = new ObjectMapper(new YAMLFactory()
                .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));
        try {
            ObjectNode root = (ObjectNode) mapper.readTree(templateText);
            root.put("name", name);
            root.put(
                    "description",
                    "Calibrated (modelled) on " + provenance + ". "
                            + root.path("description").asText(""));
            ObjectNode model = root.has("model") && root.get("model").isObject()
                    ? (ObjectNode) root.get("model")
                    : root.putObject("model");
            // With several setups (quotas), the first's measured settings: the fitted values are each quota's alike.
            Scenario setup = fit.setups().get(0).scenario();
            Map<String, Double> values = new TreeMap<>();
            values.put(ModelKey.UNFENCE_DELAY_MS.key(), setup.model().get(ModelKey.UNFENCE_DELAY_MS));
            values.put(ModelKey.RECOVERY_WINDOW_SECONDS.key(), setup.model().get(ModelKey.RECOVERY_WINDOW_SECONDS));
            fit.values().forEach((k, v) -> values.put(k.key(), round(v)));
            values.forEach(model::put);
            for (JsonNode e : root.path("timeline").path("events")) {
                if (e.has("restart") && e.get("restart").isObject()) {
                    ((ObjectNode) e.get("restart"))
                            .put("down", setup.restarts().get(0).downMs() + "ms");
                }
            }
            String header = "# Calibrated with pacer simulate --calibrate: " + provenance + ".\n"
                    + "# The fit and its residuals: " + reportName + ", written with this file.\n";
            return header + mapper.writeValueAsString(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Four significant digits: the fit's grid is coarser than that, and the file stays readable. */
    static double round(double v) {
        return Double.parseDouble(String.format(Locale.ROOT, "%.4g", v));
    }
}
