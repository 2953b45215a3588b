import { Space, Tag, Typography } from 'antd';

interface Facet {
  value: string;
  count: number;
}

/**
 * One facet's values with their counts, each a toggle: a click filters the list by it, a click
 * on the chosen one drops the filter.
 */
export function Facets(props: {
  label: string;
  facets: Facet[];
  chosen: string | undefined;
  onChoose: (value: string | null) => void;
  testId: string;
}) {
  if (props.facets.length === 0) return null;
  return (
    <Space wrap size={[4, 4]} data-testid={props.testId} style={{ marginBottom: 8 }}>
      <Typography.Text strong>{props.label}:</Typography.Text>
      {props.facets.map((f) => {
        const active = f.value === props.chosen;
        return (
          <Tag.CheckableTag
            key={f.value}
            checked={active}
            onChange={() => props.onChoose(active ? null : f.value)}
          >
            {f.value} ({f.count})
          </Tag.CheckableTag>
        );
      })}
    </Space>
  );
}
