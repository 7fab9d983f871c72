package io.leaderpacer.dist;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README and every user doc (docs/*.md) link only to files that exist in the repository and that the tarball ships, so that
 * an operator who reads them on a host without the repository does not meet a dead link.
 *
 * <p>Why from the assembly descriptor and not from the built tarball: this test runs in every build's test phase,
 * before the tarball exists; {@code TarballTest} checks the same links in the unpacked tarball at verify.
 */
class DocLinksTest {

    /** The project's root, seen from this module's directory. */
    static final Path ROOT = Path.of("..");

    /** The documents the tarball ships for its reader: the README and every user doc. */
    static final List<Path> FRONT_DOORS = userDocs();

    /** The tarball's descriptor, from the project's root. */
    private static final Path DESCRIPTOR = Path.of("dist", "src", "assembly", "tarball.xml");

    /** A Markdown inline link or image: the target is group 1 (a title after it is allowed). */
    private static final Pattern LINK =
            Pattern.compile("\\[(?:[^\\[\\]]|\\[[^\\]]*\\])*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    /** A fenced code block; links in it are examples, not links. */
    private static final Pattern FENCE = Pattern.compile("(?s)```.*?```");
    /** An inline code span. */
    private static final Pattern CODE_SPAN = Pattern.compile("`[^`]*`");
    /** A target with a scheme (https:, mailto:, file:): not a file of the repository. */
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");

    @Test
    void userDocs_linkOnlyToFilesThatExistInTheRepository() throws IOException {
        List<String> broken = new ArrayList<>();
        for (Path doc : FRONT_DOORS) {
            broken.addAll(brokenLinks(ROOT, doc, Files.readString(ROOT.resolve(doc))));
        }

        assertThat(broken).as("links to files that do not exist").isEmpty();
    }

    @Test
    void userDocs_linkOnlyToFilesTheTarballShips() throws IOException {
        List<FileSet> fileSets = fileSets(ROOT.resolve(DESCRIPTOR));
        List<String> missing = new ArrayList<>();
        for (Path doc : FRONT_DOORS) {
            for (String target : linkTargets(doc, Files.readString(ROOT.resolve(doc)))) {
                if (!inTarball(fileSets, target) && !folderInTarball(fileSets, target)) {
                    missing.add(doc + " -> " + target);
                }
            }
        }

        assertThat(fileSets).as("file sets of " + DESCRIPTOR).isNotEmpty();
        assertThat(missing)
                .as("links to files " + DESCRIPTOR + " does not put in the tarball")
                .isEmpty();
    }

    @Test
    void madeUpReadme_withALinkToAMissingFile_isReported() {
        String readme = "See [the agent](docs/AGENT.md#permissions-acls), [nothing](docs/NO-SUCH-FILE.md) and"
                + " [gone](docs/evidence/no-such-run/summary.md).\n";

        List<String> broken = brokenLinks(ROOT, Path.of("README.md"), readme);

        assertThat(broken)
                .containsExactly(
                        "README.md -> docs/NO-SUCH-FILE.md", "README.md -> docs/evidence/no-such-run/summary.md");
    }

    @Test
    void madeUpAgentDoc_linksResolveFromItsOwnFolder() {
        String agent = "[versions](COMPATIBILITY.md), [the README](../README.md), [wrong](docs/COMPATIBILITY.md)\n";

        assertThat(linkTargets(Path.of("docs", "AGENT.md"), agent))
                .containsExactly("docs/COMPATIBILITY.md", "README.md", "docs/docs/COMPATIBILITY.md");
        assertThat(brokenLinks(ROOT, Path.of("docs", "AGENT.md"), agent))
                .containsExactly("docs/AGENT.md -> docs/docs/COMPATIBILITY.md");
    }

    @Test
    void webAddressesAnchorsAndCode_areNotLinksToCheck() {
        String readme = "[web](https://kafka.apache.org/x.md), [mail](mailto:a@b.c), [here](#two-commands),"
                + " `[code](docs/NO-SUCH-FILE.md)`\n```\n[fenced](docs/NO-SUCH-FILE.md)\n```\n";

        assertThat(linkTargets(Path.of("README.md"), readme)).isEmpty();
    }

    @Test
    void theEvidencesNotesAndReports_areInTheTarball_notItsRawData() throws IOException {
        List<FileSet> fileSets = fileSets(ROOT.resolve(DESCRIPTOR));

        assertThat(inTarball(fileSets, "docs/evidence/JOURNAL.md")).isTrue();
        assertThat(inTarball(fileSets, "docs/evidence/run16-fetchers/summary.md"))
                .isTrue();
        assertThat(inTarball(fileSets, "docs/evidence/run16-fetchers/report.html"))
                .isTrue();
        assertThat(inTarball(fileSets, "docs/evidence/run20-defaults/latency-seconds.csv.gz"))
                .isFalse();
        assertThat(inTarball(fileSets, "docs/NO-SUCH-FILE.json")).isFalse();
        assertThat(inTarball(fileSets, "README.md")).isTrue();
        assertThat(inTarball(fileSets, "docs/AGENT.md")).isTrue();
        assertThat(inTarball(fileSets, "docs/CONFIGURATION.md")).isTrue();
        assertThat(inTarball(fileSets, "docs/grafana-dashboard.json")).isTrue();
        assertThat(inTarball(fileSets, "config/pacer.properties")).isTrue();
    }

    /**
     * The targets of the relative links of {@code markdown}, a document at {@code doc} (from the project's root),
     * resolved to paths from the project's root with {@code /} between names; web addresses, anchors within the
     * document and links inside code are left out, and an anchor after a file name is dropped.
     */
    static List<String> linkTargets(Path doc, String markdown) {
        String text = CODE_SPAN.matcher(FENCE.matcher(markdown).replaceAll("")).replaceAll("");
        Path folder = doc.getParent() == null ? Path.of("") : doc.getParent();
        List<String> targets = new ArrayList<>();
        Matcher m = LINK.matcher(text);
        while (m.find()) {
            String target = m.group(1);
            if (SCHEME.matcher(target).find() || target.startsWith("#")) {
                continue;
            }
            int anchor = target.indexOf('#');
            String file = anchor < 0 ? target : target.substring(0, anchor);
            targets.add(folder.resolve(file).normalize().toString().replace('\\', '/'));
        }
        return targets;
    }

    /** {@code doc -> target} for each relative link of {@code markdown} whose target is no file under {@code root}. */
    static List<String> brokenLinks(Path root, Path doc, String markdown) {
        List<String> broken = new ArrayList<>();
        for (String target : linkTargets(doc, markdown)) {
            if (target.isEmpty() || target.startsWith("..") || !Files.exists(root.resolve(target))) {
                broken.add(doc.toString().replace('\\', '/') + " -> " + target);
            }
        }
        return broken;
    }

    /**
     * One {@code fileSet} of the assembly descriptor: the folder it copies from and the one it copies to, both from
     * the project's root with {@code /} between names and {@code ""} for the root itself (the tarball's top directory
     * stands for the root), and its include patterns.
     */
    record FileSet(String from, String to, List<String> includes) {}

    /** The descriptor's file sets; {@code ${project.basedir}} is the dist module, a relative folder is under it. */
    static List<FileSet> fileSets(Path descriptor) throws IOException {
        Document xml;
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            xml = factory.newDocumentBuilder().parse(descriptor.toFile());
        } catch (Exception e) {
            throw new IOException("cannot read " + descriptor + ": " + e.getMessage(), e);
        }
        List<FileSet> sets = new ArrayList<>();
        NodeList nodes = xml.getElementsByTagName("fileSet");
        for (int i = 0; i < nodes.getLength(); i++) {
            Element set = (Element) nodes.item(i);
            String directory = text(set, "directory");
            Path from = directory.startsWith("${project.basedir}")
                    ? Path.of(directory.replace("${project.basedir}", "dist"))
                    : Path.of("dist", directory);
            List<String> includes = new ArrayList<>();
            NodeList include = set.getElementsByTagName("include");
            for (int j = 0; j < include.getLength(); j++) {
                includes.add(include.item(j).getTextContent().trim());
            }
            sets.add(new FileSet(slashed(from), slashed(Path.of(text(set, "outputDirectory"))), includes));
        }
        return sets;
    }

    /** The path normalized, with {@code /} between names; {@code ""} for the root. */
    private static String slashed(Path path) {
        return path.normalize().toString().replace('\\', '/');
    }

    private static String text(Element parent, String tag) {
        NodeList found = parent.getElementsByTagName(tag);
        return found.getLength() == 0 ? "" : found.item(0).getTextContent().trim();
    }

    /** README.md and every docs/*.md, from the project's root. */
    private static List<Path> userDocs() {
        List<Path> docs = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
            files.filter(f -> f.getFileName().toString().endsWith(".md"))
                    .map(f -> Path.of("docs", f.getFileName().toString()))
                    .sorted()
                    .forEach(docs::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return List.copyOf(docs);
    }

    /** Whether {@code target} is a folder of the repository with a file the tarball holds (a link to a run's folder). */
    private static boolean folderInTarball(List<FileSet> fileSets, String target) throws IOException {
        Path folder = ROOT.resolve(target);
        if (!Files.isDirectory(folder)) {
            return false;
        }
        try (Stream<Path> files = Files.walk(folder)) {
            return files.filter(Files::isRegularFile).anyMatch(f -> inTarball(fileSets, slashed(ROOT.relativize(f))));
        }
    }

    /**
     * Whether the tarball holds {@code target} (a path from the project's root) at the same place, so that a link
     * that reaches it in the repository reaches it in the unpacked tarball too.
     */
    static boolean inTarball(List<FileSet> fileSets, String target) {
        String file = slashed(Path.of(target));
        for (FileSet set : fileSets) {
            String relative;
            if (set.from().isEmpty()) {
                relative = file;
            } else if (file.startsWith(set.from() + "/")) {
                relative = file.substring(set.from().length() + 1);
            } else {
                continue;
            }
            String inTarball = set.to().isEmpty() ? relative : set.to() + "/" + relative;
            if (!inTarball.equals(file)) {
                continue;
            }
            for (String include : set.includes()) {
                if (FileSystems.getDefault().getPathMatcher("glob:" + include).matches(Path.of(relative))) {
                    return true;
                }
            }
        }
        return false;
    }
}
