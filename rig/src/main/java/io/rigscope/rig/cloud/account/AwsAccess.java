package io.rigscope.rig.cloud.account;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.cloudformation.CloudFormationClient;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.iam.IamClient;
import software.amazon.awssdk.services.rds.RdsClient;
import software.amazon.awssdk.services.resourcegroupstaggingapi.ResourceGroupsTaggingApiClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.scheduler.SchedulerClient;
import software.amazon.awssdk.services.ssm.SsmClient;
import io.rigscope.rig.cloud.CloudSection;
import io.rigscope.rig.pricing.PriceTable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import software.amazon.awssdk.services.cloudformation.model.Stack;
import software.amazon.awssdk.services.cloudformation.model.StackStatus;
import software.amazon.awssdk.services.ec2.model.Instance;
import software.amazon.awssdk.services.ec2.model.InstanceStateName;
import software.amazon.awssdk.services.ec2.model.Volume;
import software.amazon.awssdk.services.rds.model.DBInstance;
import software.amazon.awssdk.services.resourcegroupstaggingapi.model.GetResourcesResponse;
import software.amazon.awssdk.services.resourcegroupstaggingapi.model.ResourceTagMapping;
import software.amazon.awssdk.services.scheduler.model.ScheduleSummary;

/**
 * How {@code rigscope cloud} reaches AWS: the region, an optional endpoint every service is sent to (a VPC endpoint or
 * a test's stand-in), the credentials, and the time one call may take. Every client is a sync client on the
 * url-connection HTTP client; a call that cannot connect, or that has no answer within {@link #callTimeout}, fails
 * (two attempts at most), so an endpoint nobody answers is reported in seconds, never waited on.
 *
 * @param region the region
 * @param endpoint where every service's calls go, or null for AWS's own endpoints
 * @param credentials the credentials provider (the SDK's default chain on the command line)
 * @param callTimeout the most one call may take, retries included
 */
public record AwsAccess(Region region, URI endpoint, AwsCredentialsProvider credentials, Duration callTimeout) {

    /** The default {@link #callTimeout}. */
    public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(3);

    public AwsAccess {
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(credentials, "credentials");
        Objects.requireNonNull(callTimeout, "callTimeout");
    }

    private <B extends AwsClientBuilder<B, C>, C> C build(B builder, Region clientRegion) {
        builder.region(clientRegion).credentialsProvider(credentials)
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .apiCallTimeout(callTimeout)
                        .apiCallAttemptTimeout(callTimeout.dividedBy(2))
                        .retryStrategy(AwsRetryStrategy.standardRetryStrategy().toBuilder().maxAttempts(2).build())
                        .build());
        if (endpoint != null) {
            builder.endpointOverride(endpoint);
        }
        return builder.build();
    }

    private static UrlConnectionHttpClient.Builder http(Duration callTimeout) {
        return UrlConnectionHttpClient.builder().connectionTimeout(CONNECT_TIMEOUT).socketTimeout(callTimeout);
    }

    public CloudFormationClient cloudFormation() {
        return build(CloudFormationClient.builder().httpClientBuilder(http(callTimeout)), region);
    }

    public SchedulerClient scheduler() {
        return build(SchedulerClient.builder().httpClientBuilder(http(callTimeout)), region);
    }

    public ResourceGroupsTaggingApiClient tagging() {
        return build(ResourceGroupsTaggingApiClient.builder().httpClientBuilder(http(callTimeout)), region);
    }

    /** IAM is global: its calls are signed for {@code aws-global}. */
    public IamClient iam() {
        return build(IamClient.builder().httpClientBuilder(http(callTimeout)), Region.AWS_GLOBAL);
    }

    public Ec2Client ec2() {
        return build(Ec2Client.builder().httpClientBuilder(http(callTimeout)), region);
    }

    public RdsClient rds() {
        return build(RdsClient.builder().httpClientBuilder(http(callTimeout)), region);
    }

    /** Path-style addressing when an endpoint is given (a stand-in has no bucket subdomains). */
    public S3Client s3() {
        return build(S3Client.builder().httpClientBuilder(http(callTimeout)).forcePathStyle(endpoint != null), region);
    }

    public SsmClient ssm() {
        return build(SsmClient.builder().httpClientBuilder(http(callTimeout)), region);
    }

    /**
     * An AWS call that could not be made or was refused: no credentials, access denied, or an endpoint that does not
     * answer. Its message is the one line {@code cloud check} prints (exit 2).
     */
    public static final class CouldNotLook extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CouldNotLook(String message, Throwable cause) {
            super(message, cause);
        }

        /**
         * The one-line reason {@code call} (e.g. {@code tagging:GetResources}) failed with {@code e}: no credentials,
         * access denied (the service's own code and message), unreachable (the endpoint and the cause), or the service's
         * error as it gave it.
         */
        public static CouldNotLook of(String call, RuntimeException e) {
            if (e instanceof software.amazon.awssdk.awscore.exception.AwsServiceException s) {
                String code = s.awsErrorDetails() == null ? null : s.awsErrorDetails().errorCode();
                String message = s.awsErrorDetails() == null ? s.getMessage() : s.awsErrorDetails().errorMessage();
                boolean denied = s.statusCode() == 403 || (code != null && (code.contains("AccessDenied")
                        || code.equals("UnauthorizedOperation") || code.contains("InvalidClientTokenId")
                        || code.contains("UnrecognizedClient") || code.contains("ExpiredToken")
                        || code.contains("SignatureDoesNotMatch")));
                return new CouldNotLook((denied ? "access denied: " : "AWS refused: ") + call + " answered " + code + ": "
                        + firstLine(message), e);
            }
            String text = firstLine(e.getMessage());
            if (text.startsWith("Unable to load credentials")) {
                return new CouldNotLook("no AWS credentials: none in the environment, the system properties, "
                        + "~/.aws/credentials, a container or the instance profile (nothing was sent)", e);
            }
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            String why = root == e ? text : root.getClass().getSimpleName() + ": " + firstLine(root.getMessage());
            return new CouldNotLook("endpoint unreachable: " + call + " got no answer (" + why + ")", e);
        }

        private static String firstLine(String s) {
            return s == null ? "" : s.lines().findFirst().orElse("");
        }
    }

    /**
     * What a region holds that rigscope made: every resource tagged {@code rigscope:series} (Resource Groups Tagging API
     * GetResources), every stack so tagged and not yet deleted (CloudFormation DescribeStacks), the expiry schedules
     * (Scheduler ListSchedules, prefix {@code rigscope-}: schedules carry no tags) and the expiry roles (IAM ListRoles,
     * path {@code /rigscope/}), each with its hourly cost where AWS bills it by the hour. Any call that fails makes the
     * whole look fail ({@link CouldNotLook}): a partial list is never reported as the account's state.
     */
    public static final class Inventory {

        /** IAM path of the roles {@code cloud up} makes. */
        public static final String ROLE_PATH = "/rigscope/";

        /**
         * One thing found.
         *
         * @param arn its ARN
         * @param kind what it is ({@code ec2 instance}, {@code rds db}, ...)
         * @param series its {@code rigscope:series} tag (or the series its name says), or {@code ?}
         * @param expiresAt its {@code rigscope:expires-at} tag, or null
         * @param hourlyUsd USD per hour, 0 when AWS does not bill it by the hour, null when unknown
         * @param why why the price is unknown, or null
         * @param kept true for an evidence bucket, kept after teardown on purpose
         */
        public record Found(String arn, String kind, String series, String expiresAt, Double hourlyUsd, String why,
                            boolean kept) {
        }

        /**
         * @param region the region looked at
         * @param found everything found, kept evidence buckets included
         */
        public record Result(String region, List<Found> found) {
            public Result {
                found = List.copyOf(found);
            }

            /** What remains (everything but the kept evidence buckets). */
            public List<Found> remaining() {
                return found.stream().filter(f -> !f.kept()).toList();
            }
        }

        private final AwsAccess aws;
        private final PriceTable prices;

        public Inventory(AwsAccess aws, PriceTable prices) {
            this.aws = aws;
            this.prices = prices;
        }

        /**
         * Looks.
         *
         * @param series only this series' resources, or null for every series
         * @throws CouldNotLook when a call could not be made or was refused
         */
        public Result look(String series) {
            call("credentials", () -> aws.credentials().resolveCredentials());
            Map<String, Found> found = new LinkedHashMap<>();
            try (ResourceGroupsTaggingApiClient tagging = aws.tagging(); CloudFormationClient cfn = aws.cloudFormation();
                 SchedulerClient scheduler = aws.scheduler(); IamClient iam = aws.iam()) {
                String token = null;
                do {
                    String page = token;
                    GetResourcesResponse r = call("tagging:GetResources", () -> tagging.getResources(b -> b
                            .tagFilters(f -> {
                                f.key(CloudSection.Names.TAG_SERIES);
                                if (series != null) {
                                    f.values(series);
                                }
                            }).resourcesPerPage(100).paginationToken(page)));
                    for (ResourceTagMapping m : r.resourceTagMappingList()) {
                        Map<String, String> tags = new LinkedHashMap<>();
                        m.tags().forEach(t -> tags.put(t.key(), t.value()));
                        found.put(m.resourceARN(), new Found(m.resourceARN(), kind(m.resourceARN()),
                                tags.getOrDefault(CloudSection.Names.TAG_SERIES, "?"), tags.get(CloudSection.Names.TAG_EXPIRES_AT), 0.0,
                                null, CloudSection.Names.ROLE_EVIDENCE.equals(tags.get(CloudSection.Names.TAG_ROLE))));
                    }
                    token = r.paginationToken() == null || r.paginationToken().isEmpty() ? null : r.paginationToken();
                } while (token != null);
                for (Stack s : call("cloudformation:DescribeStacks", () -> cfn.describeStacksPaginator().stacks()
                        .stream().toList())) {
                    Optional<String> tag = s.tags().stream().filter(t -> t.key().equals(CloudSection.Names.TAG_SERIES))
                            .map(t -> t.value()).findFirst();
                    if (tag.isEmpty() || s.stackStatus() == StackStatus.DELETE_COMPLETE
                            || (series != null && !series.equals(tag.get()))) {
                        continue;
                    }
                    String expires = s.tags().stream().filter(t -> t.key().equals(CloudSection.Names.TAG_EXPIRES_AT))
                            .map(t -> t.value()).findFirst().orElse(null);
                    found.putIfAbsent(s.stackId(), new Found(s.stackId(), "cloudformation stack " + s.stackStatusAsString(),
                            tag.get(), expires, 0.0, null, false));
                }
                String schedulePrefix = series == null ? "rigscope-" : CloudSection.Names.scheduleName(series);
                for (ScheduleSummary s : call("scheduler:ListSchedules", () -> scheduler.listSchedulesPaginator(b -> b
                        .namePrefix(schedulePrefix)).schedules().stream().toList())) {
                    if (series == null || s.name().equals(CloudSection.Names.scheduleName(series))) {
                        found.putIfAbsent(s.arn(), new Found(s.arn(), "scheduler schedule", seriesOfName(s.name()), null,
                                0.0, null, false));
                    }
                }
                for (var role : call("iam:ListRoles", () -> iam.listRolesPaginator(b -> b.pathPrefix(ROLE_PATH)).roles()
                        .stream().toList())) {
                    if (series == null || role.roleName().equals(CloudSection.Names.expiryRoleName(series))) {
                        found.putIfAbsent(role.arn(), new Found(role.arn(), "iam role", seriesOfName(role.roleName()),
                                null, 0.0, null, false));
                    }
                }
            }
            return new Result(aws.region().id(), price(new ArrayList<>(found.values())));
        }

        private List<Found> price(List<Found> found) {
            List<Found> out = new ArrayList<>();
            List<Found> instances = found.stream().filter(f -> f.kind().equals("ec2 instance")).toList();
            List<Found> volumes = found.stream().filter(f -> f.kind().equals("ec2 volume")).toList();
            List<Found> databases = found.stream().filter(f -> f.kind().equals("rds db")).toList();
            Map<String, Instance> byInstance = new LinkedHashMap<>();
            Map<String, Volume> byVolume = new LinkedHashMap<>();
            Map<String, DBInstance> byDb = new LinkedHashMap<>();
            if (!instances.isEmpty() || !volumes.isEmpty()) {
                try (Ec2Client ec2 = aws.ec2()) {
                    if (!instances.isEmpty()) {
                        call("ec2:DescribeInstances", () -> ec2.describeInstancesPaginator(b -> b.instanceIds(
                                instances.stream().map(f -> lastPart(f.arn())).toList())).reservations().stream()
                                .flatMap(r -> r.instances().stream()).toList()).forEach(i -> byInstance.put(i.instanceId(), i));
                    }
                    if (!volumes.isEmpty()) {
                        call("ec2:DescribeVolumes", () -> ec2.describeVolumesPaginator(b -> b.volumeIds(
                                volumes.stream().map(f -> lastPart(f.arn())).toList())).volumes().stream().toList())
                                .forEach(v -> byVolume.put(v.volumeId(), v));
                    }
                }
            }
            if (!databases.isEmpty()) {
                try (RdsClient rds = aws.rds()) {
                    for (Found f : databases) {
                        String id = f.arn().substring(f.arn().lastIndexOf(':') + 1);
                        call("rds:DescribeDBInstances", () -> rds.describeDBInstancesPaginator(b -> b
                                .filters(x -> x.name("db-instance-id").values(id))).dbInstances().stream().toList())
                                .forEach(d -> byDb.put(d.dbInstanceIdentifier(), d));
                    }
                }
            }
            String region = aws.region().id();
            for (Found f : found) {
                String id = f.kind().equals("rds db") ? f.arn().substring(f.arn().lastIndexOf(':') + 1) : lastPart(f.arn());
                switch (f.kind()) {
                    case "ec2 instance" -> {
                        Instance i = byInstance.get(id);
                        if (i == null || i.state() != null && i.state().name() == InstanceStateName.TERMINATED) {
                            continue; // the tagging API lists terminated instances for a while
                        }
                        out.add(priced(f, prices.ec2InstanceHourlyUsd(region, i.instanceTypeAsString()), "EC2 "
                                + i.instanceTypeAsString() + " Linux", 1));
                    }
                    case "ec2 volume" -> {
                        Volume v = byVolume.get(id);
                        if (v == null) {
                            continue;
                        }
                        out.add(priced(f, prices.ebsGbMonthUsd(region, v.volumeTypeAsString()), "EBS "
                                + v.volumeTypeAsString(), v.size() / PriceTable.HOURS_PER_MONTH));
                    }
                    case "rds db" -> {
                        DBInstance d = byDb.get(id);
                        if (d == null) {
                            continue;
                        }
                        PriceTable.RdsShape shape = new PriceTable.RdsShape(region, d.dbInstanceClass(),
                                Boolean.TRUE.equals(d.multiAZ()), d.storageType() == null ? "gp2" : d.storageType(),
                                d.allocatedStorage() == null ? 0 : d.allocatedStorage(), d.iops() == null ? 0 : d.iops(),
                                d.storageThroughput() == null ? 0 : d.storageThroughput());
                        out.add(prices.rdsHourlyCost(shape).map(c -> withPrice(f, c.usd(), null))
                                .orElseGet(() -> withPrice(f, null, String.join("; ", prices.rdsMissingPrices(shape)))));
                    }
                    case "rds snapshot", "rds cluster-snapshot", "ec2 snapshot" ->
                            out.add(withPrice(f, null, "a snapshot bills per GB-month stored; no snapshot price in the table"));
                    default -> out.add(f);
                }
            }
            return out;
        }

        private Found priced(Found f, java.util.OptionalDouble price, String what, double factor) {
            return price.isPresent() ? withPrice(f, price.getAsDouble() * factor, null)
                    : withPrice(f, null, "no known price for " + what + " in " + aws.region().id() + " (price table "
                            + prices.date() + ")");
        }

        private static Found withPrice(Found f, Double usd, String why) {
            return new Found(f.arn(), f.kind(), f.series(), f.expiresAt(), usd, why, f.kept());
        }

        /** {@code ec2 instance}, {@code rds db}, {@code s3 bucket}... from an ARN. */
        static String kind(String arn) {
            String[] parts = arn.split(":", 6);
            if (parts.length < 6) {
                return "?";
            }
            String service = parts[2];
            String resource = parts[5];
            if (service.equals("s3")) {
                return "s3 bucket";
            }
            int cut = resource.indexOf('/');
            int colon = resource.indexOf(':');
            if (cut < 0 || (colon >= 0 && colon < cut)) {
                cut = colon;
            }
            return service + " " + (cut < 0 ? resource : resource.substring(0, cut));
        }

        private static String lastPart(String arn) {
            return arn.substring(arn.lastIndexOf('/') + 1);
        }

        private static String seriesOfName(String name) {
            return name.startsWith("rigscope-") && name.endsWith("-expiry")
                    ? name.substring("rigscope-".length(), name.length() - "-expiry".length()) : "?";
        }

        static <T> T call(String what, Supplier<T> call) {
            try {
                return call.get();
            } catch (CouldNotLook e) {
                throw e;
            } catch (RuntimeException e) {
                throw CouldNotLook.of(what, e);
            }
        }
    }
}
