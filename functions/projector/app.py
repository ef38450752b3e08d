"""ProjectorFunction: fed by the table's stream, the one writer of Scheduler entries."""

from typing import Any

from aws_lambda_powertools.utilities.batch import BatchProcessor, EventType, process_partial_response
from aws_lambda_powertools.utilities.data_classes.dynamo_db_stream_event import DynamoDBRecord

from cronbell.adapters.dynamo.codec import stream_change, stream_identity
from cronbell.observability import count, logger, metrics
from cronbell.usecases.project import Applied, apply
from cronbell.wiring import deps, warm_up

warm_up()
processor = BatchProcessor(event_type=EventType.DynamoDBStreams)


class AfterAFailure(Exception):
    """A later change of an item whose earlier change failed in this batch: it waits its turn, so
    one item's changes are applied in the order the stream keeps them."""


@metrics.log_metrics
@logger.inject_lambda_context(clear_state=True)
def lambda_handler(event: Any, context: Any) -> dict[str, Any]:
    failed: set[tuple[str, str]] = set()
    total = Applied()

    def record_handler(record: DynamoDBRecord) -> None:
        item = stream_identity(record.raw_event)
        if item in failed:
            raise AfterAFailure(str(item))
        try:
            total.add(apply(stream_change(record.raw_event), deps()))
        except Exception:
            failed.add(item)
            raise

    answer = process_partial_response(event=event, record_handler=record_handler, processor=processor, context=context)
    count("EntriesWritten", total.written)
    count("EntriesDeleted", total.deleted)
    logger.info("projected", extra={**vars(total), "failures": len(answer.get("batchItemFailures", []))})
    return answer
