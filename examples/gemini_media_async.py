"""Async tools returning an image and a PDF, Gemini: Gemini 3 models read them in the
function response's parts, older models in a user message after the responses:
`media="auto"` with `model=` lets toolwire choose."""

import asyncio
import base64
import os

from google import genai
from google.genai import types

from toolwire.aio import (
    BaseFunctionToolModel,
    FilePart,
    ImagePart,
    ToolGroup,
    assistant_messages,
    media_report,
    tool_result_messages,
)
from toolwire.testing import FakeGemini, FakeReply

# A 1x1 PNG and a one-page PDF, standing in for a real chart and report.
CHART_PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGNgYGAAAAAEAAH2FzhVAAAAAElFTkSuQmCC"
)
REPORT_PDF = base64.b64decode(
    "JVBERi0xLjQKMSAwIG9iago8PCAvVHlwZSAvQ2F0YWxvZyAvUGFnZXMgMiAwIFIgPj4KZW5kb2JqCjIgMCBvYmoKPD"
    "wgL1R5cGUgL1BhZ2VzIC9LaWRzIFszIDAgUl0gL0NvdW50IDEgPj4KZW5kb2JqCjMgMCBvYmoKPDwgL1R5cGUgL1Bh"
    "Z2UgL1BhcmVudCAyIDAgUiAvTWVkaWFCb3ggWzAgMCAzMDAgMTAwXSAvQ29udGVudHMgNCAwIFIgL1Jlc291cmNlcy"
    "A8PCAvRm9udCA8PCAvRjEgNSAwIFIgPj4gPj4gPj4KZW5kb2JqCjQgMCBvYmoKPDwgL0xlbmd0aCA0NiA+PgpzdHJl"
    "YW0KQlQgL0YxIDE0IFRmIDIwIDUwIFRkIChRMyByZXZlbnVlOiArMTIlKSBUaiBFVAplbmRzdHJlYW0KZW5kb2JqCj"
    "UgMCBvYmoKPDwgL1R5cGUgL0ZvbnQgL1N1YnR5cGUgL1R5cGUxIC9CYXNlRm9udCAvSGVsdmV0aWNhID4+CmVuZG9i"
    "agp4cmVmCjAgNgowMDAwMDAwMDAwIDY1NTM1IGYgCjAwMDAwMDAwMDkgMDAwMDAgbiAKMDAwMDAwMDA1OCAwMDAwMC"
    "BuIAowMDAwMDAwMTE1IDAwMDAwIG4gCjAwMDAwMDAyNDEgMDAwMDAgbiAKMDAwMDAwMDMzNyAwMDAwMCBuIAp0cmFp"
    "bGVyCjw8IC9TaXplIDYgL1Jvb3QgMSAwIFIgPj4Kc3RhcnR4cmVmCjQwNwolJUVPRgo="
)

MODEL = "gemini-3-flash-preview"

script = [
    FakeReply.tool_calls(("get_chart", {"quarter": "Q3"}), ("get_report", {"quarter": "Q3"})),
    FakeReply(text="Q3 revenue grew in every region; the report attributes it to the new plan."),
]
client = (
    genai.Client().aio
    if os.environ.get("GEMINI_API_KEY") or os.environ.get("GOOGLE_API_KEY")
    else FakeGemini(script=script).async_client()
)


class get_chart(BaseFunctionToolModel[None, None]):
    """Get the revenue chart of a quarter, as an image."""

    quarter: str

    async def model_tool_handler(self, context: None) -> tuple[list[str | ImagePart], None]:
        return [f"Revenue by region, {self.quarter}:", ImagePart.from_bytes(CHART_PNG)], None


class get_report(BaseFunctionToolModel[None, None]):
    """Get the finance report of a quarter, as a PDF."""

    quarter: str

    async def model_tool_handler(self, context: None) -> tuple[list[FilePart], None]:
        return [FilePart.from_bytes(REPORT_PDF, filename=f"{self.quarter}-report.pdf")], None


tools = ToolGroup.from_list([get_chart, get_report])


async def main() -> None:
    config = types.GenerateContentConfig(tools=tools.tool_definitions("gemini"))
    history: list[types.Content] = [
        types.Content(
            role="user", parts=[types.Part(text="How did Q3 go? Look at the chart and the report.")]
        )
    ]
    while True:
        response = await client.models.generate_content(
            model=MODEL, contents=history, config=config
        )
        history.extend(assistant_messages(response, "gemini"))
        results = await tools.run_tool_calls(response, None)
        if not results:
            print(f"Answer: {response.text}")
            break
        print(media_report(results, "gemini", media="auto", model=MODEL))
        history.extend(tool_result_messages(results, "gemini", media="auto", model=MODEL))


if __name__ == "__main__":
    asyncio.run(main())
