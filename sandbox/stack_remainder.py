"""What moto's CloudFormation does not create, taught to it: each class is one resource type, created through
moto's own backend as the matching API call would create it. moto's CloudFormation finds its resource types
as the subclasses of `CloudFormationModel`, so defining them (and clearing its cached map) is the whole
registration. A moto release that creates one of these types itself wins: `register` leaves that type alone.

- `AWS::Scheduler::ScheduleGroup`, `AWS::Scheduler::Schedule` (SAM's `ScheduleV2` events become these)
- `AWS::CloudWatch::Alarm`
- `AWS::Lambda::EventInvokeConfig` (a function's retries and its OnFailure destination)
- `AWS::Lambda::Alias` (SAM's `AutoPublishAlias`: the alias every caller invokes, on the published version)
- `AWS::CodeDeploy::Application`, `AWS::CodeDeploy::DeploymentGroup` (SAM's `DeploymentPreference`: the
  sandbox creates its stack once, so no deployment ever shifts traffic; they are recorded in moto's CodeDeploy)
- after the stack, each table's `TimeToLiveSpecification`
- and one attribute of a type moto creates: `Fn::GetAtt [<a Lambda version>, Version]`, the number it published,
  which an alias names
"""

from __future__ import annotations

from typing import Any

from moto.core.common_models import CloudFormationModel


class _Remainder:
    """A created resource: its physical id and its attributes (each type below is also a direct subclass of
    `CloudFormationModel`, as moto finds only those)."""

    def __init__(self, physical_id: str, attributes: dict[str, str]) -> None:
        self.physical_resource_id = physical_id
        self.attributes = attributes

    @staticmethod
    def cloudformation_name_type() -> str:
        return ""

    @staticmethod
    def cloudformation_type() -> str:
        return ""

    @classmethod
    def has_cfn_attr(cls, attr: str) -> bool:
        return True

    def get_cfn_attribute(self, attribute_name: str) -> str:
        return self.attributes[attribute_name]

    @classmethod
    def update_from_cloudformation_json(cls, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("the sandbox creates its stack once")

    @classmethod
    def delete_from_cloudformation_json(cls, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError("the sandbox creates its stack once")

    def is_created(self) -> bool:
        return True


class ScheduleGroup(_Remainder, CloudFormationModel):
    @staticmethod
    def cloudformation_name_type() -> str:
        return "Name"

    @staticmethod
    def cloudformation_type() -> str:
        return "AWS::Scheduler::ScheduleGroup"

    @classmethod
    def create_from_cloudformation_json(
        cls, resource_name: str, cloudformation_json: dict[str, Any], account_id: str, region_name: str, **_: Any
    ) -> ScheduleGroup:
        from moto.scheduler.models import scheduler_backends

        tags = cloudformation_json.get("Properties", {}).get("Tags", [])
        group = scheduler_backends[account_id][region_name].create_schedule_group(name=resource_name, tags=tags)
        return cls(resource_name, {"Arn": group.arn, "State": "ACTIVE"})


class Schedule(_Remainder, CloudFormationModel):
    @staticmethod
    def cloudformation_name_type() -> str:
        return "Name"

    @staticmethod
    def cloudformation_type() -> str:
        return "AWS::Scheduler::Schedule"

    @classmethod
    def create_from_cloudformation_json(
        cls, resource_name: str, cloudformation_json: dict[str, Any], account_id: str, region_name: str, **_: Any
    ) -> Schedule:
        from moto.scheduler.models import scheduler_backends

        p = cloudformation_json.get("Properties", {})
        schedule = scheduler_backends[account_id][region_name].create_schedule(
            description=p.get("Description"),
            end_date=p.get("EndDate"),
            flexible_time_window=p.get("FlexibleTimeWindow", {"Mode": "OFF"}),
            group_name=p.get("GroupName"),
            kms_key_arn=p.get("KmsKeyArn"),
            name=resource_name,
            schedule_expression=p["ScheduleExpression"],
            schedule_expression_timezone=p.get("ScheduleExpressionTimezone"),
            start_date=p.get("StartDate"),
            state=p.get("State", "ENABLED"),
            target=p["Target"],
            action_after_completion=p.get("ActionAfterCompletion"),
        )
        return cls(schedule.arn, {"Arn": schedule.arn})


class Alarm(_Remainder, CloudFormationModel):
    @staticmethod
    def cloudformation_name_type() -> str:
        return "AlarmName"

    @staticmethod
    def cloudformation_type() -> str:
        return "AWS::CloudWatch::Alarm"

    @classmethod
    def create_from_cloudformation_json(
        cls, resource_name: str, cloudformation_json: dict[str, Any], account_id: str, region_name: str, **_: Any
    ) -> Alarm:
        from moto.cloudwatch.models import cloudwatch_backends

        p = cloudformation_json.get("Properties", {})
        alarm = cloudwatch_backends[account_id][region_name].put_metric_alarm(
            name=resource_name,
            namespace=p.get("Namespace"),
            metric_name=p.get("MetricName"),
            comparison_operator=p["ComparisonOperator"],
            evaluation_periods=int(p["EvaluationPeriods"]),
            period=int(p["Period"]),
            threshold=float(p["Threshold"]),
            statistic=p.get("Statistic"),
            description=p.get("AlarmDescription"),
            dimensions=[{"Name": str(d["Name"]), "Value": str(d["Value"])} for d in p.get("Dimensions", [])],
            alarm_actions=list(p.get("AlarmActions", [])),
            ok_actions=list(p.get("OKActions", [])),
            treat_missing_data=p.get("TreatMissingData"),
        )
        return cls(resource_name, {"Arn": alarm.alarm_arn})


class EventInvokeConfig(_Remainder, CloudFormationModel):
    @staticmethod
    def cloudformation_type() -> str:
        return "AWS::Lambda::EventInvokeConfig"

    @classmethod
    def create_from_cloudformation_json(
        cls, resource_name: str, cloudformation_json: dict[str, Any], account_id: str, region_name: str, **_: Any
    ) -> EventInvokeConfig:
        from moto.awslambda.models import lambda_backends

        p = cloudformation_json.get("Properties", {})
        config = {
            key: p[key] for key in ("MaximumRetryAttempts", "MaximumEventAgeInSeconds", "DestinationConfig") if key in p
        }
        lambda_backends[account_id][region_name].put_function_event_invoke_config(p["FunctionName"], config)
        return cls(resource_name, {})


class Alias(_Remainder, CloudFormationModel):
    @staticmethod
    def cloudformation_type() -> str:
        return "AWS::Lambda::Alias"

    @classmethod
    def create_from_cloudformation_json(
        cls, resource_name: str, cloudformation_json: dict[str, Any], account_id: str, region_name: str, **_: Any
    ) -> Alias:
        from moto.awslambda.models import lambda_backends

        p = cloudformation_json.get("Properties", {})
        alias = lambda_backends[account_id][region_name].create_alias(
            name=p["Name"],
            function_name=p["FunctionName"],
            function_version=str(p["FunctionVersion"]),
            description=p.get("Description", ""),
            routing_config=p.get("RoutingConfig", ""),
        )
        return cls(alias.arn, {"AliasArn": alias.arn})  # Ref: the alias's ARN


class CodeDeployApplication(_Remainder, CloudFormationModel):
    @staticmethod
    def cloudformation_name_type() -> str:
        return "ApplicationName"

    @staticmethod
    def cloudformation_type() -> str:
        return "AWS::CodeDeploy::Application"

    @classmethod
    def create_from_cloudformation_json(
        cls, resource_name: str, cloudformation_json: dict[str, Any], account_id: str, region_name: str, **_: Any
    ) -> CodeDeployApplication:
        from moto.codedeploy.models import codedeploy_backends

        p = cloudformation_json.get("Properties", {})
        codedeploy_backends[account_id][region_name].create_application(
            resource_name, p.get("ComputePlatform", "Lambda"), p.get("Tags", [])
        )
        return cls(resource_name, {})


class CodeDeployDeploymentGroup(_Remainder, CloudFormationModel):
    @staticmethod
    def cloudformation_name_type() -> str:
        return "DeploymentGroupName"

    @staticmethod
    def cloudformation_type() -> str:
        return "AWS::CodeDeploy::DeploymentGroup"

    @classmethod
    def create_from_cloudformation_json(
        cls, resource_name: str, cloudformation_json: dict[str, Any], account_id: str, region_name: str, **_: Any
    ) -> CodeDeployDeploymentGroup:
        from moto.codedeploy.models import codedeploy_backends

        p = cloudformation_json.get("Properties", {})
        codedeploy_backends[account_id][region_name].create_deployment_group(
            application_name=p["ApplicationName"],
            deployment_group_name=resource_name,
            deployment_config_name=str(p.get("DeploymentConfigName", "")),
            ec2_tag_filters=None,
            on_premises_instance_tag_filters=None,
            auto_scaling_groups=None,
            service_role_arn=p["ServiceRoleArn"],
            alarm_configuration=p.get("AlarmConfiguration"),
            auto_rollback_configuration=p.get("AutoRollbackConfiguration"),
            deployment_style=p.get("DeploymentStyle"),
        )
        return cls(resource_name, {})


REMAINDER = (
    ScheduleGroup,
    Schedule,
    Alarm,
    EventInvokeConfig,
    Alias,
    CodeDeployApplication,
    CodeDeployDeploymentGroup,
)


def _version_attribute(version: Any, attribute_name: str) -> str:
    from moto.cloudformation.exceptions import UnformattedGetAttTemplateException

    if attribute_name != "Version":
        raise UnformattedGetAttTemplateException()
    return str(version.version)


def register() -> None:
    """Let moto's CloudFormation create the remainder's types (those it does not create itself), and read a
    published version's number."""
    from moto.awslambda.models import LambdaVersion
    from moto.cloudformation import parsing

    if "get_cfn_attribute" not in vars(LambdaVersion):
        setattr(LambdaVersion, "get_cfn_attribute", _version_attribute)  # noqa: B010 (moto declares none)

    parsing.get_model_map.cache_clear()
    own = {model.cloudformation_type() for model in parsing.get_model_list() if model not in REMAINDER}
    taken = [model for model in REMAINDER if model.cloudformation_type() in own]
    if taken:
        raise RuntimeError(
            f"moto's CloudFormation now creates {[m.cloudformation_type() for m in taken]}: drop them here"
        )


def after_stack(session: Any, endpoint: str, cfn: dict[str, Any], resources: dict[str, tuple[str, str]]) -> None:
    """What moto's CloudFormation reads but does not apply: a table's TimeToLiveSpecification."""
    dynamodb = session.client("dynamodb", endpoint_url=endpoint)
    for logical_id, (kind, physical) in resources.items():
        if kind != "AWS::DynamoDB::Table":
            continue
        ttl = cfn["Resources"][logical_id].get("Properties", {}).get("TimeToLiveSpecification") or {}
        if str(ttl.get("Enabled")).lower() == "true":
            dynamodb.update_time_to_live(
                TableName=physical, TimeToLiveSpecification={"AttributeName": ttl["AttributeName"], "Enabled": True}
            )
