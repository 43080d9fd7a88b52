package io.rigscope.rig.cloud;

import static io.rigscope.awsstandin.AwsAnswer.tag;

import io.rigscope.awsstandin.AwsAnswer;
import io.rigscope.awsstandin.AwsCall;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** {@link CloudStandIn}'s query-protocol services (CloudFormation, IAM, EC2, RDS): form in, XML out, as AWS documents them. */
final class QueryApis {

    private static final Map<String, String> NAMESPACES = Map.of(
            "cloudformation", "http://cloudformation.amazonaws.com/doc/2010-05-15/",
            "iam", "https://iam.amazonaws.com/doc/2010-05-08/",
            "ec2", "http://ec2.amazonaws.com/doc/2016-11-15/",
            "rds", "http://rds.amazonaws.com/doc/2014-10-31/");

    private QueryApis() {
    }

    static AwsAnswer answer(StandInAccount a, AwsCall c) {
        String service = c.service();
        Map<String, String> form = c.form();
        String action = form.get("Action");
        String result = switch (service + ":" + action) {
            case "cloudformation:CreateStack" -> {
                String name = form.get("StackName");
                if (a.stacks.values().stream().anyMatch(s -> s.name.equals(name) && !s.status.equals("DELETE_COMPLETE"))) {
                    throw error(400, "AlreadyExistsException", "Stack [" + name + "] already exists");
                }
                Map<String, String> tags = new LinkedHashMap<>();
                for (int i = 1; form.containsKey("Tags.member." + i + ".Key"); i++) {
                    tags.put(form.get("Tags.member." + i + ".Key"), form.get("Tags.member." + i + ".Value"));
                }
                var s = a.createStack(name, form.get("TemplateBody"), tags, "DELETE".equals(form.get("OnFailure")));
                yield "<StackId>" + s.id + "</StackId>";
            }
            case "cloudformation:DescribeStacks" -> {
                String name = form.get("StackName");
                StringBuilder b = new StringBuilder("<Stacks>");
                if (name == null) {
                    a.stacks.values().stream().filter(s -> !s.status.equals("DELETE_COMPLETE")).forEach(s -> b.append(stack(s)));
                } else {
                    var s = find(a, name);
                    if (s == null) {
                        throw error(400, "ValidationError", "Stack with id " + name + " does not exist");
                    }
                    s.advance(2);
                    b.append(stack(s));
                }
                yield b.append("</Stacks>").toString();
            }
            case "cloudformation:DescribeStackEvents" -> {
                var s = find(a, form.get("StackName"));
                if (s == null) {
                    throw error(400, "ValidationError", "Stack [" + form.get("StackName") + "] does not exist");
                }
                s.advance(3);
                StringBuilder b = new StringBuilder("<StackEvents>");
                for (int i = s.events.size() - 1; i >= 0; i--) {
                    b.append("<member><StackId>").append(s.id).append("</StackId><StackName>").append(s.name)
                            .append("</StackName>");
                    s.events.get(i).forEach((k, v) -> tag(b, k, v));
                    b.append("</member>");
                }
                yield b.append("</StackEvents>").toString();
            }
            case "cloudformation:DeleteStack" -> {
                var s = find(a, form.get("StackName"));
                if (s != null) {
                    a.deleteStack(s);
                }
                yield "";
            }
            case "iam:CreateRole" -> {
                String name = form.get("RoleName");
                if (a.roles.containsKey(name)) {
                    throw error(409, "EntityAlreadyExists", "Role with name " + name + " already exists.");
                }
                String path = form.getOrDefault("Path", "/");
                Map<String, String> r = new LinkedHashMap<>();
                r.put("Path", path);
                r.put("RoleName", name);
                r.put("RoleId", "AROA" + a.next().toUpperCase());
                r.put("Arn", "arn:aws:iam::" + StandInAccount.ACCOUNT + ":role" + path + name);
                r.put("CreateDate", Instant.now().toString());
                r.put("AssumeRolePolicyDocument", form.get("AssumeRolePolicyDocument"));
                a.roles.put(name, r);
                yield "<Role>" + fields(r) + "</Role>";
            }
            case "iam:PutRolePolicy" -> {
                Map<String, String> r = a.roles.get(form.get("RoleName"));
                if (r == null) {
                    throw error(404, "NoSuchEntity", "The role with name " + form.get("RoleName") + " cannot be found.");
                }
                r.put("policy:" + form.get("PolicyName"), form.get("PolicyDocument"));
                yield "";
            }
            case "iam:DeleteRolePolicy" -> {
                Map<String, String> r = a.roles.get(form.get("RoleName"));
                if (r == null || r.remove("policy:" + form.get("PolicyName")) == null) {
                    throw error(404, "NoSuchEntity", "The role policy with name " + form.get("PolicyName") + " cannot be found.");
                }
                yield "";
            }
            case "iam:DeleteRole" -> {
                Map<String, String> r = a.roles.get(form.get("RoleName"));
                if (r == null) {
                    throw error(404, "NoSuchEntity", "The role with name " + form.get("RoleName") + " cannot be found.");
                }
                if (r.keySet().stream().anyMatch(k -> k.startsWith("policy:"))) {
                    throw error(409, "DeleteConflict", "Cannot delete entity, must delete policies first.");
                }
                a.roles.remove(form.get("RoleName"));
                yield "";
            }
            case "iam:ListRoles" -> {
                String prefix = form.getOrDefault("PathPrefix", "/");
                StringBuilder b = new StringBuilder("<IsTruncated>false</IsTruncated><Roles>");
                a.roles.values().stream().filter(r -> r.get("Path").startsWith(prefix))
                        .forEach(r -> b.append("<member>").append(fields(r)).append("</member>"));
                yield b.append("</Roles>").toString();
            }
            case "ec2:DescribeInstances" -> {
                StringBuilder b = new StringBuilder("<reservationSet>");
                for (String id : list(form, "InstanceId")) {
                    String type = a.instanceTypes.get(id);
                    tag(tag(b.append("<item>"), "reservationId", "r-" + id).append("<instancesSet><item>"), "instanceId",
                            id);
                    tag(tag(tag(b, "instanceType", type == null ? "m7g.large" : type).append("<instanceState>"), "code",
                            type == null ? 48 : 16), "name", type == null ? "terminated" : "running");
                    b.append("</instanceState></item></instancesSet></item>");
                }
                yield b.append("</reservationSet>").toString();
            }
            case "ec2:DescribeVolumes" -> {
                StringBuilder b = new StringBuilder("<volumeSet>");
                for (String id : list(form, "VolumeId")) {
                    Integer gb = a.volumeGb.get(id);
                    if (gb != null) {
                        tag(tag(b.append("<item>"), "volumeId", id), "size", gb)
                                .append("<volumeType>gp3</volumeType><status>in-use</status></item>");
                    }
                }
                yield b.append("</volumeSet>").toString();
            }
            case "rds:DescribeDBInstances" -> {
                String id = form.get("Filters.Filter.1.Values.Value.1");
                StringBuilder b = new StringBuilder("<DBInstances>");
                Map<String, Object> p = a.databases.get(id);
                if (p != null) {
                    tag(tag(tag(tag(b.append("<DBInstance>"), "DBInstanceIdentifier", id), "DBInstanceClass",
                            p.get("DBInstanceClass")).append("<MultiAZ>false</MultiAZ>"), "StorageType",
                            p.get("StorageType")), "AllocatedStorage", p.get("AllocatedStorage"))
                            .append("<DBInstanceStatus>available</DBInstanceStatus></DBInstance>");
                }
                yield b.append("</DBInstances>").toString();
            }
            default -> {
                throw error(400, "InvalidAction", "The action " + action + " is not valid for this web service.");
            }
        };
        String ns = NAMESPACES.get(service);
        return service.equals("ec2") ? AwsAnswer.ec2(action, ns, result) : AwsAnswer.query(action, ns, result);
    }

    /** The values of a query-protocol list: {@code prefix.1}, {@code prefix.2}, ... */
    private static List<String> list(Map<String, String> form, String prefix) {
        List<String> out = new ArrayList<>();
        for (int i = 1; form.containsKey(prefix + "." + i); i++) {
            out.add(form.get(prefix + "." + i));
        }
        return out;
    }

    private static StandInAccount.Stack find(StandInAccount a, String nameOrId) {
        StandInAccount.Stack byId = a.stacks.get(nameOrId);
        if (byId != null) {
            return byId;
        }
        return a.stacks.values().stream().filter(s -> s.name.equals(nameOrId) && !s.status.equals("DELETE_COMPLETE"))
                .findFirst().orElse(null);
    }

    private static String stack(StandInAccount.Stack s) {
        StringBuilder b = tag(tag(tag(tag(new StringBuilder("<member>"), "StackName", s.name), "StackId", s.id),
                "StackStatus", s.status), "CreationTime", Instant.now());
        if (s.reason != null) {
            tag(b, "StackStatusReason", s.reason);
        }
        b.append("<Outputs>");
        s.outputs.forEach((k, v) -> tag(tag(b.append("<member>"), "OutputKey", k), "OutputValue", v).append("</member>"));
        b.append("</Outputs><Tags>");
        s.tags.forEach((k, v) -> tag(tag(b.append("<member>"), "Key", k), "Value", v).append("</member>"));
        return b.append("</Tags></member>").toString();
    }

    private static String fields(Map<String, String> r) {
        StringBuilder b = new StringBuilder();
        r.forEach((k, v) -> {
            if (!k.startsWith("policy:")) {
                tag(b, k, v);
            }
        });
        return b.toString();
    }

    private static AwsAnswer.Refusal error(int status, String code, String message) {
        return AwsAnswer.queryError(status, code, message).refusal();
    }
}
