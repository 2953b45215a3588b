import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { useThemeMode } from '../../../theme';

// Only the charts and components the analytics page draws: the full build adds ~377 KB.
echarts.use([
  PieChart,
  LineChart,
  BarChart,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  SVGRenderer,
]);

/**
 * One chart in the app's theme. Hidden from assistive technology: the table beside each chart
 * carries the same numbers in a form screen readers and tests read.
 */
export function Chart({ option, testId }: { option: object; testId: string }) {
  const mode = useThemeMode();
  return (
    <div aria-hidden="true" data-testid={testId}>
      <ReactEChartsCore
        echarts={echarts}
        option={{ backgroundColor: 'transparent', ...option }}
        theme={mode === 'dark' ? 'dark' : undefined}
        opts={{ renderer: 'svg' }}
        notMerge
        style={{ height: 280 }}
      />
    </div>
  );
}
