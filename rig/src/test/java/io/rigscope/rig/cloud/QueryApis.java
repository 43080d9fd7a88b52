package io.rigscope.rig.cloud;

import static io.rigscope.rig.cloud.CloudStandIn.list;
import static io.rigscope.rig.cloud.CloudStandIn.send;
import static io.rigscope.rig.cloud.CloudStandIn.xml;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The stand-in's query-protocol services (CloudFormation, IAM, EC2, RDS): form in, XML out, as AWS documents them. */
final class QueryApis {

    private static final Map<String, String> NAMESPACES = Map.of(
            "cloudformation", "http://cloudformation.amazonaws.com/doc/2010-05-15/",
            "iam", "https://iam.amazonaws.com/doc/2010-05-08/",
            "ec2", "http://ec2.amazonaws.com/doc/2016-11-15/",
            "rds", "http://rds.amazonaws.com/doc/2014-10-31/");

    private QueryApis() {
    }

    static void answer(CloudStandIn in, HttpExchange ex, String service, Map<String, String> form) throws IOException {
        StandInAccount a = in.account;
        String action = form.get("Action");
        String result = switch (service + ":" + action) {
            case "cloudformation:CreateStack" -> {
                String name = form.get("StackName");
                if (a.stacks.values().stream().anyMatch(s -> s.name.equals(name) && !s.status.equals("DELETE_COMPLETE"))) {
                    error(ex, 400, "AlreadyExistsException", "Stack [" + name + "] already exists");
                    yield null;
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
                        error(ex, 400, "ValidationError", "Stack with id " + name + " does not exist");
                        yield null;
                    }
                    s.advance(2);
                    b.append(stack(s));
                }
                yield b.append("</Stacks>").toString();
            }
            case "cloudformation:DescribeStackEvents" -> {
                var s = find(a, form.get("StackName"));
                if (s == null) {
                    error(ex, 400, "ValidationError", "Stack [" + form.get("StackName") + "] does not exist");
                    yield null;
                }
                s.advance(3);
                StringBuilder b = new StringBuilder("<StackEvents>");
                for (int i = s.events.size() - 1; i >= 0; i--) {
                    b.append("<member><StackId>").append(s.id).append("</StackId><StackName>").append(s.name)
                            .append("</StackName>");
                    s.events.get(i).forEach((k, v) -> b.append('<').append(k).append('>').append(xml(v))
                            .append("</").append(k).append('>'));
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
                    error(ex, 409, "EntityAlreadyExists", "Role with name " + name + " already exists.");
                    yield null;
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
                    error(ex, 404, "NoSuchEntity", "The role with name " + form.get("RoleName") + " cannot be found.");
                    yield null;
                }
                r.put("policy:" + form.get("PolicyName"), form.get("PolicyDocument"));
                yield "";
            }
            case "iam:DeleteRolePolicy" -> {
                Map<String, String> r = a.roles.get(form.get("RoleName"));
                if (r == null || r.remove("policy:" + form.get("PolicyName")) == null) {
                    error(ex, 404, "NoSuchEntity", "The role policy with name " + form.get("PolicyName") + " cannot be found.");
                    yield null;
                }
                yield "";
            }
            case "iam:DeleteRole" -> {
                Map<String, String> r = a.roles.get(form.get("RoleName"));
                if (r == null) {
                    error(ex, 404, "NoSuchEntity", "The role with name " + form.get("RoleName") + " cannot be found.");
                    yield null;
                }
                if (r.keySet().stream().anyMatch(k -> k.startsWith("policy:"))) {
                    error(ex, 409, "DeleteConflict", "Cannot delete entity, must delete policies first.");
                    yield null;
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
                    b.append("<item><reservationId>r-").append(id).append("</reservationId><instancesSet><item>")
                            .append("<instanceId>").append(id).append("</instanceId><instanceType>")
                            .append(type == null ? "m7g.large" : type).append("</instanceType><instanceState><code>")
                            .append(type == null ? 48 : 16).append("</code><name>")
                            .append(type == null ? "terminated" : "running")
                            .append("</name></instanceState></item></instancesSet></item>");
                }
                yield b.append("</reservationSet>").toString();
            }
            case "ec2:DescribeVolumes" -> {
                StringBuilder b = new StringBuilder("<volumeSet>");
                for (String id : list(form, "VolumeId")) {
                    Integer gb = a.volumeGb.get(id);
                    if (gb != null) {
                        b.append("<item><volumeId>").append(id).append("</volumeId><size>").append(gb)
                                .append("</size><volumeType>gp3</volumeType><status>in-use</status></item>");
                    }
                }
                yield b.append("</volumeSet>").toString();
            }
            case "rds:DescribeDBInstances" -> {
                String id = form.get("Filters.Filter.1.Values.Value.1");
                StringBuilder b = new StringBuilder("<DBInstances>");
                Map<String, Object> p = a.databases.get(id);
                if (p != null) {
                    b.append("<DBInstance><DBInstanceIdentifier>").append(id).append("</DBInstanceIdentifier>")
                            .append("<DBInstanceClass>").append(p.get("DBInstanceClass")).append("</DBInstanceClass>")
                            .append("<MultiAZ>false</MultiAZ><StorageType>").append(p.get("StorageType"))
                            .append("</StorageType><AllocatedStorage>").append(p.get("AllocatedStorage"))
                            .append("</AllocatedStorage><DBInstanceStatus>available</DBInstanceStatus></DBInstance>");
                }
                yield b.append("</DBInstances>").toString();
            }
            default -> {
                error(ex, 400, "InvalidAction", "The action " + action + " is not valid for this web service.");
                yield null;
            }
        };
        if (result == null) {
            return;
        }
        String ns = NAMESPACES.get(service);
        String body = service.equals("ec2")
                ? "<" + action + "Response xmlns=\"" + ns + "\"><requestId>r-1</requestId>" + result + "</" + action + "Response>"
                : "<" + action + "Response xmlns=\"" + ns + "\"><" + action + "Result>" + result + "</" + action
                        + "Result><ResponseMetadata><RequestId>r-1</RequestId></ResponseMetadata></" + action + "Response>";
        send(ex, 200, "text/xml", body);
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
        StringBuilder b = new StringBuilder("<member><StackName>").append(s.name).append("</StackName><StackId>")
                .append(s.id).append("</StackId><StackStatus>").append(s.status).append("</StackStatus>")
                .append("<CreationTime>").append(Instant.now()).append("</CreationTime>");
        if (s.reason != null) {
            b.append("<StackStatusReason>").append(xml(s.reason)).append("</StackStatusReason>");
        }
        b.append("<Outputs>");
        s.outputs.forEach((k, v) -> b.append("<member><OutputKey>").append(k).append("</OutputKey><OutputValue>")
                .append(xml(v)).append("</OutputValue></member>"));
        b.append("</Outputs><Tags>");
        s.tags.forEach((k, v) -> b.append("<member><Key>").append(xml(k)).append("</Key><Value>").append(xml(v))
                .append("</Value></member>"));
        return b.append("</Tags></member>").toString();
    }

    private static String fields(Map<String, String> r) {
        StringBuilder b = new StringBuilder();
        r.forEach((k, v) -> {
            if (!k.startsWith("policy:")) {
                b.append('<').append(k).append('>').append(xml(v)).append("</").append(k).append('>');
            }
        });
        return b.toString();
    }

    static void error(HttpExchange ex, int status, String code, String message) throws IOException {
        send(ex, status, "text/xml", "<ErrorResponse><Error><Type>Sender</Type><Code>" + code + "</Code><Message>"
                + xml(message) + "</Message></Error><RequestId>r-1</RequestId></ErrorResponse>");
    }

}
